package io.mailbox.messaging;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A leased delivery of {@code {}} for the channel's unit tests; {@code settle} runs the given
 * function, which may record the disposition or throw the way a store that is away would.
 */
record FakeDelivery(MailAddress address, String key, Predicate<Disposition> onSettle)
    implements Delivery {

  @Override
  public MailMessage message() {
    return MailMessage.to(address).body("{}").build();
  }

  @Override
  public Optional<String> leaseId() {
    return Optional.of("lease-" + key);
  }

  @Override
  public Optional<Instant> leaseExpiresAt() {
    return Optional.empty();
  }

  @Override
  public boolean settle(Disposition disposition) {
    return onSettle.test(disposition);
  }
}
