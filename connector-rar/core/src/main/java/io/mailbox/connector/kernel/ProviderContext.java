package io.mailbox.connector.kernel;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.spi.Receiver;
import io.mailbox.connector.spi.TransportContext;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The kernel's services as a {@link MailboxProvider}'s transport sees them. */
final class ProviderContext implements TransportContext {
  private final MailboxProvider provider;
  private final BroadcastSettlement broadcasts;
  private final Settlement settlement;
  private final DeadLetters deadLetters;

  ProviderContext(
      MailboxProvider provider,
      BroadcastSettlement broadcasts,
      Settlement settlement,
      DeadLetters deadLetters) {
    this.provider = provider;
    this.broadcasts = broadcasts;
    this.settlement = settlement;
    this.deadLetters = deadLetters;
  }

  @Override
  public void dispatch(MailAddress topic, MailMessage copy, List<? extends Receiver> receivers) {
    broadcasts.dispatch(topic, copy, receivers);
  }

  @Override
  public void giveUpQueued(MailAddress topic, MailMessage copy, String reason, int deliveries) {
    settlement.giveUp(topic, copy, reason, deliveries, null);
  }

  @Override
  public long broadcastsInFlight(MailAddress topic) {
    return broadcasts.inFlight(topic);
  }

  @Override
  public Duration deliverySettleTimeout() {
    return provider.deliverySettleTimeout();
  }

  @Override
  public boolean isStarted() {
    return provider.isStarted();
  }

  @Override
  public Optional<MailAddress> deadLetterSource(MailAddress address) {
    return deadLetters.policy().flatMap(policy -> policy.sourceOf(address));
  }

  @Override
  public Optional<MailAddress> deadLetterTopic(MailAddress address) {
    return provider.deadLetterTopic(address);
  }
}
