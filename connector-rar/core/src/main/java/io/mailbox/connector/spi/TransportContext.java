package io.mailbox.connector.spi;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The kernel's services a transport calls back: it is handed one in {@link Transport#attach}. */
public interface TransportContext {

  /**
   * Delivers one copy to {@code receivers} (subscribers of {@code topic} the transport found) and
   * settles it once every delivery has ended: acknowledged, requeued or given up. Call it outside
   * any lock the transport holds.
   */
  void dispatch(MailAddress topic, MailMessage copy, List<? extends Receiver> receivers);

  /**
   * Gives up a queued copy the transport will not hand out (its delivery cap or time to live is
   * spent): archived to the dead-letter topic with {@code reason}, parked at the end of the chain,
   * or dropped with a warning when dead letters are off.
   */
  void giveUpQueued(MailAddress topic, MailMessage copy, String reason, int deliveries);

  /** Broadcasts of {@code topic} whose deliveries have not all ended yet. */
  long broadcastsInFlight(MailAddress topic);

  /**
   * The watchdog over one subscriber delivery: a transport that keeps a broadcast copy leased while
   * subscribers work on it leases it for longer than this.
   */
  Duration deliverySettleTimeout();

  /** Whether the provider is started (background work of the transport stops when it is not). */
  boolean isStarted();

  /**
   * The address whose dead-letter topic {@code address} is under the provider's dead-letter policy
   * now (one level up), or empty: not a dead-letter topic, or dead letters are off. A transport
   * that names a dead-letter store after its source (Redis's {@code <stream>.dead.<group>}) maps
   * addresses with it.
   */
  Optional<MailAddress> deadLetterSource(MailAddress address);

  /** Where given-up copies of {@code address} go under the current policy, or empty when off. */
  Optional<MailAddress> deadLetterTopic(MailAddress address);
}
