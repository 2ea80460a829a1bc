package io.mailbox.connector.provider.file;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.spi.ArrivalSignals;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The consumers waiting for a copy this process queues in a folder ({@code spi.SignalsArrivals}). A
 * file another writer drops in is seen at their next poll. One small entry per address ever waited
 * on, kept for the provider's life: a consumer that armed a signal must find it there.
 */
final class WaitingConsumers {
  private final Map<MailAddress, ArrivalSignals> byAddress = new ConcurrentHashMap<>();
  private final Predicate<MailAddress> queued;

  /**
   * @param queued whether an address has a copy waiting to be taken (a folder listing)
   */
  WaitingConsumers(Predicate<MailAddress> queued) {
    this.queued = queued;
  }

  Runnable await(MailAddress address, Runnable signal) {
    return byAddress
        .computeIfAbsent(address, a -> new ArrivalSignals())
        .await(() -> queued.test(address), signal);
  }

  /** After this process queued a copy at {@code address}, outside the provider's monitor. */
  void queued(MailAddress address) {
    ArrivalSignals waiting = byAddress.get(address);
    if (waiting != null) {
      waiting.queued(() -> queued.test(address));
    }
  }
}
