package io.mailbox.examples.orders.billing;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Outgoing;

/** A processor: each placed order becomes an invoice request. */
@ApplicationScoped
public class InvoicePreparation {

  @Incoming("placed-orders")
  @Outgoing("invoices")
  public String prepare(String order) {
    JsonObject placed;
    try (var reader = Json.createReader(new StringReader(order))) {
      placed = reader.readObject();
    }
    return Json.createObjectBuilder()
        .add("orderId", placed.getString("orderId"))
        .add("item", placed.getString("item"))
        .add("quantity", placed.getInt("quantity"))
        .add("status", "to-invoice")
        .build()
        .toString();
  }
}
