package io.mailbox.console.api;

import io.mailbox.ejb.operations.OutboxOperations;
import io.mailbox.ejb.outbox.OutboxStatus;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.io.InputStream;
import java.util.List;
import java.util.Locale;

/** The transactional outbox: counts, rows, and releasing failed rows. */
@Path("outbox")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class OutboxResource {
  static final String RELEASE_BODY = "{\"ids\": [...], \"retry\": true|false}";

  @EJB OutboxOperations operations;

  /** Pending, failed and invalid rows, the oldest pending age, parked inbox deliveries. */
  @GET
  public JsonObject summary() {
    return JsonViews.outbox(operations.summary());
  }

  /** Rows of one status ({@code pending}, {@code failed}, {@code sent}), oldest first. */
  @GET
  @Path("rows")
  public JsonObject rows(
      @QueryParam("status") @DefaultValue("failed") String status,
      @QueryParam("limit") String limit) {
    OutboxStatus wanted;
    try {
      wanted = OutboxStatus.valueOf(status.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw ApiRefusal.invalid("status must be one of pending, failed, sent");
    }
    return Json.createObjectBuilder()
        .add(
            "rows",
            JsonViews.array(operations.rows(wanted, Requests.limit(limit, 50)), JsonViews::row))
        .build();
  }

  /**
   * Releases failed rows: {@code {"ids": ["..."], "retry": true}} returns them to pending with zero
   * attempts; {@code "retry": false} discards them.
   */
  @POST
  @Path("release")
  @Consumes(MediaType.APPLICATION_JSON)
  public JsonObject release(InputStream body) {
    JsonObject request = Requests.object(body, RELEASE_BODY);
    List<String> ids = Requests.strings(request, "ids", "rows", RELEASE_BODY);
    boolean retry = Requests.bool(request, "retry", RELEASE_BODY);
    int released = operations.releaseOutbox(ids, retry);
    return Json.createObjectBuilder()
        .add("requested", ids.size())
        .add("released", released)
        .build();
  }
}
