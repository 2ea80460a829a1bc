package io.mailbox.examples.orders;

import io.mailbox.ejb.outbox.Outbox;
import io.mailbox.ejb.outbox.WriteOptions;
import io.mailbox.messaging.OutgoingMailboxMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Clock;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;

/**
 * Places orders. One JTA transaction holds the order row, the {@code orders.placed.v1} outbox row
 * (written with the outbox API; billing's pipeline gets it from the relay) and a shipping request
 * sent on the {@code shipping-requests} channel (an outbox channel: also a row in this transaction,
 * relayed to shipping's MDB). All of it happens, or none does.
 */
@Stateless
public class OrderDesk {
  /** Where shipping's MDB listens. */
  public static final String SHIPPING_ADDRESS = "jdbc:shipping@shop/orders";

  private final Clock clock = Clock.systemUTC();

  @PersistenceContext(unitName = "shop")
  private EntityManager shop;

  @EJB private Outbox outbox;

  @Inject
  @Channel("shipping-requests")
  Emitter<String> shippingRequests;

  @Resource private SessionContext context;

  /**
   * Places order {@code orderId} for {@code item} with {@code notes} notes; false (and nothing
   * written) when that order already exists: a client's retry of an order it placed, whose first
   * answer it never got, is answered without placing it twice. With {@code failAfterWriting} the
   * transaction rolls back after everything was written: nothing of it is ever delivered. {@code
   * progress} is marked once everything is written, so a failure after it is the commit's own.
   */
  public boolean place(
      String orderId,
      String item,
      int quantity,
      int notes,
      boolean failAfterWriting,
      PlacementProgress progress) {
    if (shop.find(ShopOrder.class, orderId) != null) {
      return false;
    }
    shop.persist(new ShopOrder(orderId, item, quantity, clock.instant()));
    JsonObject order =
        Json.createObjectBuilder()
            .add("orderId", orderId)
            .add("item", item)
            .add("quantity", quantity)
            .build();
    outbox.write(Events.ORDER_PLACED, order, WriteOptions.none().withAggregate(orderId, 1));
    for (int n = 1; n <= notes; n++) {
      // The same aggregate, the next versions: relayed after the placed event, one by one.
      outbox.write(
          Events.ORDER_NOTED,
          Json.createObjectBuilder().add("orderId", orderId).add("note", "note " + n).build(),
          WriteOptions.none().withAggregate(orderId, 1 + n));
    }
    shippingRequests.send(OutgoingMailboxMessage.of(order.toString()).withId("ship-" + orderId));
    // The order row is written now, while the transaction is active, after the outbox's rows: on
    // Payara's non-XA pool a write left to commit time takes a connection that is not in the
    // transaction and auto-commits (measured with H2's JDBC trace: the order then committed on its
    // own, and a kill -9 mid-commit kept it without its outbox rows). Flushed here, it shares the
    // outbox's connection. The rule for application code: flush before the method returns.
    shop.flush();
    if (failAfterWriting) {
      context.setRollbackOnly();
    }
    progress.markWritten();
    return true;
  }

  /** Whether an order row exists (the rollback demo shows it does not). */
  public boolean exists(String orderId) {
    return shop.find(ShopOrder.class, orderId) != null;
  }
}
