package io.mailbox.examples.orders.stock;

import io.mailbox.connector.api.Delivery;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * The responder of the request/reply example: answers stock lookups sent to {@code
 * jdbc:stock@shop/levels} ({@code GET /orders-app/api/stock?item=...} asks). It consumes the
 * address's request channel ({@code jdbc:stock@shop/rr.req.levels}) and answers each request
 * through {@link StockDesk}; an unknown item is answered with the failure, which the requester
 * receives as {@code MBX-2011}.
 */
@ApplicationScoped
public class StockLevels {
  // @Inject, not @EJB: Weld hands over the session bean itself, where @EJB is a java:comp lookup
  // that
  // fails on the messaging threads on Payara Server (no component context there, measured).
  @Inject StockDesk desk;

  @Incoming("stock-lookups")
  public CompletionStage<Void> answer(Message<String> lookup) {
    desk.answer(lookup.unwrap(Delivery.class).message());
    return lookup.ack();
  }
}
