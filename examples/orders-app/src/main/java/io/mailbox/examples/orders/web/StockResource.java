package io.mailbox.examples.orders.web;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.connector.api.MailboxException;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;

/**
 * {@code GET /orders-app/api/stock?item=book}: the requester of the request/reply example. Asks the
 * stock responder ({@code StockLevels}) over {@code jdbc:stock@shop/levels} and waits at most 5 s:
 * the reply as is, 422 with {@code MBX-2011} when the responder failed, 504 with {@code MBX-2010}
 * when nobody answered in time.
 */
@Path("stock")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class StockResource {
  static final MailAddress STOCK = MailAddress.parse("jdbc:stock@shop/levels");
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  @Inject MailboxConnectionFactory connections;

  @GET
  public Response level(@QueryParam("item") String item) {
    if (item == null || item.isBlank() || item.length() > 100) {
      return error(400, "ORD-400", "item (1-100 characters) needed");
    }
    MailMessage lookup =
        MailMessage.to(STOCK)
            .body(Json.createObjectBuilder().add("item", item).build().toString())
            .build();
    try (MailboxConnection connection = connections.getConnection()) {
      return Response.ok(connection.request(STOCK, lookup, TIMEOUT).body()).build();
    } catch (MailboxException failed) {
      if (failed.errorCode() == ErrorCode.REMOTE_HANDLER_FAILED) {
        return error(422, failed.errorCode().code(), failed.getMessage());
      }
      if (failed.errorCode() == ErrorCode.REQUEST_TIMEOUT) {
        return error(504, failed.errorCode().code(), failed.getMessage());
      }
      throw failed;
    }
  }

  private static Response error(int status, String code, String message) {
    return Response.status(status)
        .entity(Json.createObjectBuilder().add("code", code).add("message", message).build())
        .build();
  }
}
