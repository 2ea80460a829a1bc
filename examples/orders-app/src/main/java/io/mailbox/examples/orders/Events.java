package io.mailbox.examples.orders;

import io.mailbox.ejb.event.IntegrationEventDefinition;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/** The shop's integration events: one definition serves producer and consumer. */
public final class Events {
  private Events() {}

  /** An order was placed: {orderId, item, quantity}. Rows of one order relay in write order. */
  public static final IntegrationEventDefinition<JsonObject> ORDER_PLACED =
      IntegrationEventDefinition.define(
          "orders.placed",
          1,
          "orders.placed.v1",
          Events::order,
          envelope -> envelope.aggregateId().orElse(null));

  /**
   * A note on an order (a gift message, a delivery hint): {orderId, note}. Written in the order's
   * transaction after {@link #ORDER_PLACED} under the same aggregate, so the relay publishes an
   * order's events in the order they were written, whichever server relays them.
   */
  public static final IntegrationEventDefinition<JsonObject> ORDER_NOTED =
      IntegrationEventDefinition.define(
          "orders.noted",
          1,
          "orders.noted.v1",
          Events::note,
          envelope -> envelope.aggregateId().orElse(null));

  /** Billing should invoice an order: {orderId, item, quantity}. */
  public static final IntegrationEventDefinition<JsonObject> INVOICE_REQUESTED =
      IntegrationEventDefinition.define(
          "billing.invoice-requested", 1, "billing.invoice-requested.v1", Events::order);

  /**
   * Shipping should ship an order: {orderId, item, quantity}. Written by the "shipping-requests"
   * outbox channel; the envelope id is {@code ship-<orderId>}.
   */
  public static final IntegrationEventDefinition<JsonObject> SHIPPING_REQUESTED =
      IntegrationEventDefinition.define(
          "shipping.requested", 1, "shipping.requested.v1", Events::order);

  private static JsonObject note(JsonValue data) {
    JsonObject note = data.asJsonObject();
    if (note.getString("orderId", "").isBlank() || note.getString("note", "").isBlank()) {
      throw new IllegalArgumentException("a note needs an orderId and a text");
    }
    return note;
  }

  private static JsonObject order(JsonValue data) {
    JsonObject order = data.asJsonObject();
    if (order.getString("orderId", "").isBlank() || order.getInt("quantity", 0) < 1) {
      throw new IllegalArgumentException("an order needs an orderId and a positive quantity");
    }
    return order;
  }
}
