package io.mailbox.examples.orders.web;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.ejb.event.IntegrationEventEnvelope;
import io.mailbox.examples.orders.Events;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@code POST /orders-app/api/billing-requests?orderId=X&copies=2} posts several identical copies
 * of one invoice request (one envelope id) to the ledger's address, as a transport redelivering a
 * message would: the ledger's consumer inbox applies it once. {@code &malformed=true} posts a
 * request without an order, which the ledger rejects and its inbox parks. A demonstration and test
 * hook, like the courier switch.
 */
@Path("billing-requests")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class BillingRequestResource {
  private static final int MAX_COPIES = 10;

  @Inject MailboxConnectionFactory connections;

  @Inject
  @ConfigProperty(name = "mp.messaging.incoming.invoices-in.address")
  String ledgerAddress;

  @POST
  public Response post(
      @QueryParam("orderId") @DefaultValue("") String orderId,
      @QueryParam("copies") @DefaultValue("1") int copies,
      @QueryParam("malformed") @DefaultValue("false") boolean malformed) {
    if ((!malformed && (orderId.isBlank() || orderId.length() > 100))
        || copies < 1
        || copies > MAX_COPIES) {
      JsonObject error =
          Json.createObjectBuilder()
              .add("code", "ORD-400")
              .add("message", "orderId (1-100 characters) and copies 1-" + MAX_COPIES + " needed")
              .build();
      return Response.status(Response.Status.BAD_REQUEST).entity(error).build();
    }
    JsonObject data =
        malformed
            ? Json.createObjectBuilder().add("item", "nothing").build()
            : Json.createObjectBuilder()
                .add("orderId", orderId)
                .add("item", "redelivered")
                .add("quantity", 1)
                .build();
    IntegrationEventEnvelope request =
        IntegrationEventEnvelope.of(Events.INVOICE_REQUESTED, data)
            .id("invoice-request-" + UUID.randomUUID())
            .build();
    List<MailMessage> messages = new ArrayList<>();
    for (int i = 0; i < copies; i++) {
      messages.add(MailMessage.to(ledgerAddress).body(request.toJson()).build());
    }
    try (MailboxConnection connection = connections.getConnection()) {
      connection.postAll(messages);
    }
    return Response.status(Response.Status.ACCEPTED)
        .entity(
            Json.createObjectBuilder()
                .add("envelopeId", request.id())
                .add("copies", copies)
                .build())
        .build();
  }
}
