package io.mailbox.examples.orders.stock;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * The responder of the request/reply example: answers stock lookups sent to {@code
 * jdbc:stock@shop/levels} ({@code GET /orders-app/api/stock?item=...} asks). A channel method, so
 * it runs in the application with its transactions and beans: it consumes the address's request
 * channel ({@code jdbc:stock@shop/rr.req.levels}) and answers each request through the connection;
 * an unknown item is answered with the failure, which the requester receives as {@code MBX-2011}.
 */
@ApplicationScoped
public class StockLevels {
  private static final Map<String, Integer> LEVELS = Map.of("book", 12, "lamp", 3, "kettle", 0);

  @Inject MailboxConnectionFactory connections;

  @Incoming("stock-lookups")
  public CompletionStage<Void> answer(Message<String> lookup) {
    MailMessage request = lookup.unwrap(Delivery.class).message();
    try (MailboxConnection connection = connections.getConnection()) {
      try {
        connection.reply(request, levelOf(lookup.getPayload()).toString(), null);
      } catch (IllegalArgumentException unknown) {
        connection.reply(request, null, unknown);
      }
    }
    return lookup.ack();
  }

  private static JsonObject levelOf(String json) {
    String item;
    try (var reader = Json.createReader(new StringReader(json))) {
      item = reader.readObject().getString("item", "");
    }
    Integer available = LEVELS.get(item);
    if (available == null) {
      throw new IllegalArgumentException("unknown item " + item);
    }
    return Json.createObjectBuilder().add("item", item).add("available", available).build();
  }
}
