package io.mailbox.examples.orders;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.json.Json;
import java.time.Clock;
import java.util.UUID;

/**
 * Places orders. The letter to billing is posted inside the method's transaction, so it is
 * delivered only if the order is committed.
 */
@Stateless
public class OrderDesk {
  /** Where billing listens. */
  public static final String BILLING_ADDRESS = "mem:billing@shop/orders";

  /** Who the letters come from. */
  public static final String SHOP_ADDRESS = "mem:orders@shop/desk";

  private final Clock clock = Clock.systemUTC();

  @Resource(lookup = MailboxConnectionFactory.DEFAULT_JNDI_NAME)
  private MailboxConnectionFactory mailbox;

  /** Places an order for {@code item} and returns its id. */
  public String place(String item, int quantity) {
    String orderId = UUID.randomUUID().toString();
    String body =
        Json.createObjectBuilder()
            .add("orderId", orderId)
            .add("item", item)
            .add("quantity", quantity)
            .add("placedAt", clock.instant().toString())
            .build()
            .toString();
    try (MailboxConnection connection = mailbox.getConnection()) {
      connection.post(
          MailMessage.to(BILLING_ADDRESS)
              .from(SHOP_ADDRESS)
              .id(orderId)
              .header("type", "order-placed")
              .body(body)
              .build());
    }
    return orderId;
  }
}
