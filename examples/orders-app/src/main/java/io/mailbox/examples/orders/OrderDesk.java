package io.mailbox.examples.orders;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.messaging.OutgoingMailboxMessage;
import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.json.Json;
import java.time.Clock;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;

/**
 * Places orders. In the method's transaction it announces the order twice: on the {@code orders}
 * channel (billing's pipeline) and, through the connection factory, to shipping's MDB. Both are
 * delivered only if the transaction commits.
 */
@Stateless
public class OrderDesk {
  /** Where the pipeline picks orders up. */
  public static final String PLACED_ADDRESS = "mem:orders@shop/placed";

  /** Where shipping's MDB listens. */
  public static final String SHIPPING_ADDRESS = "mem:shipping@shop/orders";

  /** Who the letters come from. */
  public static final String SHOP_ADDRESS = "mem:orders@shop/desk";

  private final Clock clock = Clock.systemUTC();

  @Inject
  @Channel("orders")
  Emitter<String> orders;

  @Resource(lookup = MailboxConnectionFactory.DEFAULT_JNDI_NAME)
  private MailboxConnectionFactory mailbox;

  /** Places an order for {@code item} and returns its id. */
  public String place(String item, int quantity) {
    String orderId = UUID.randomUUID().toString();
    String order =
        Json.createObjectBuilder()
            .add("orderId", orderId)
            .add("item", item)
            .add("quantity", quantity)
            .add("placedAt", clock.instant().toString())
            .build()
            .toString();
    orders.send(
        OutgoingMailboxMessage.of(order).withId(orderId).withHeader("type", "order-placed"));
    try (MailboxConnection connection = mailbox.getConnection()) {
      connection.post(
          MailMessage.to(SHIPPING_ADDRESS)
              .from(SHOP_ADDRESS)
              .id(orderId)
              .header("type", "order-placed")
              .body(order)
              .build());
    }
    return orderId;
  }
}
