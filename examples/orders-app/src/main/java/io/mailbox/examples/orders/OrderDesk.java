package io.mailbox.examples.orders;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.ejb.outbox.Outbox;
import io.mailbox.ejb.outbox.WriteOptions;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Clock;
import java.util.UUID;

/**
 * Places orders. One JTA transaction holds the order row, the {@code orders.placed.v1} outbox row
 * (billing's pipeline gets it from the relay) and a letter to shipping's MDB: all three happen, or
 * none does.
 */
@Stateless
public class OrderDesk {
  /** Where shipping's MDB listens. */
  public static final String SHIPPING_ADDRESS = "mem:shipping@shop/orders";

  /** Who the letters come from. */
  public static final String SHOP_ADDRESS = "mem:orders@shop/desk";

  private final Clock clock = Clock.systemUTC();

  @PersistenceContext(unitName = "shop")
  private EntityManager shop;

  @EJB private Outbox outbox;

  @Resource(lookup = MailboxConnectionFactory.DEFAULT_JNDI_NAME)
  private MailboxConnectionFactory mailbox;

  @Resource private SessionContext context;

  /**
   * Places an order for {@code item} and returns its id. With {@code failAfterWriting} the
   * transaction rolls back after everything was written: nothing of it is ever delivered.
   */
  public String place(String item, int quantity, boolean failAfterWriting) {
    String orderId = UUID.randomUUID().toString();
    shop.persist(new ShopOrder(orderId, item, quantity, clock.instant()));
    JsonObject order =
        Json.createObjectBuilder()
            .add("orderId", orderId)
            .add("item", item)
            .add("quantity", quantity)
            .build();
    outbox.write(Events.ORDER_PLACED, order, WriteOptions.none().withAggregate(orderId, 1));
    try (MailboxConnection connection = mailbox.getConnection()) {
      connection.post(
          MailMessage.to(SHIPPING_ADDRESS)
              .from(SHOP_ADDRESS)
              .id(orderId)
              .header("type", "order-placed")
              .body(order.toString())
              .build());
    }
    if (failAfterWriting) {
      context.setRollbackOnly();
    }
    return orderId;
  }

  /** Whether an order row exists (the rollback demo shows it does not). */
  public boolean exists(String orderId) {
    return shop.find(ShopOrder.class, orderId) != null;
  }
}
