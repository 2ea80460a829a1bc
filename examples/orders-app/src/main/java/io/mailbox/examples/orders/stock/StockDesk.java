package io.mailbox.examples.orders.stock;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.Map;

/**
 * Answers one stock lookup ({@link StockLevels} hands it over). An EJB, because channel methods run
 * on the messaging threads, which carry no component context on Payara Server: a JNDI lookup of the
 * EAR's {@code java:app/} connection factory fails there ("ComponentId is null", measured), while
 * an EJB call brings the application's context with it on every server.
 */
@Stateless
// No transaction: a reply is sent at once anyway, and a connection enlisted in a container
// transaction around it only adds a branch to commit (with one, Payara Server's channels stalled).
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class StockDesk {
  private static final Map<String, Integer> LEVELS = Map.of("book", 12, "lamp", 3, "kettle", 0);

  @Inject MailboxConnectionFactory connections;

  /** Replies the level of the request's item, or the failure for an unknown one. */
  public void answer(MailMessage request) {
    try (MailboxConnection connection = connections.getConnection()) {
      try {
        connection.reply(request, levelOf(request.body()).toString(), null);
      } catch (IllegalArgumentException unknown) {
        connection.reply(request, null, unknown);
      }
    }
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
