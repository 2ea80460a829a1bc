package io.mailbox.connector.kernel;

import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.spi.Receiver;
import io.mailbox.connector.spi.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * One copy pushed to the subscribers present: one {@link DeliveryChain} per subscriber (retries,
 * backoff, watchdog), and once every chain has ended, one settlement for the copy — any handled →
 * acknowledged, the failures dead-lettered (requeueing would repeat the side effect); none handled
 * but some retriable → one copy back to the queue; all fatal → given up.
 */
final class BroadcastSettlement {
  private static final Logger LOG = Logger.getLogger(BroadcastSettlement.class.getName());

  private final Settlement settlement;
  private final Scheduler scheduler;
  private final SettleWatchdog watchdog;
  private final Supplier<RetryPolicy> providerRetryPolicy;
  private final Supplier<Duration> settleTimeout;
  private final Map<MailAddress, AtomicLong> inFlight = new ConcurrentHashMap<>();
  private final TrafficCounters traffic;

  BroadcastSettlement(
      Settlement settlement,
      Scheduler scheduler,
      Clock clock,
      Supplier<RetryPolicy> providerRetryPolicy,
      Supplier<Duration> settleTimeout,
      TrafficCounters traffic) {
    this.traffic = traffic;
    this.settlement = settlement;
    this.scheduler = scheduler;
    this.watchdog = new SettleWatchdog(scheduler, clock);
    this.providerRetryPolicy = providerRetryPolicy;
    this.settleTimeout = settleTimeout;
  }

  void dispatch(MailAddress topic, MailMessage copy, List<? extends Receiver> receivers) {
    MailMessage handedOut = Stamps.handOut(copy);
    TrafficCounters.Counts counts = traffic.of(topic);
    counts.delivered();
    AtomicLong counter = inFlight.computeIfAbsent(topic, ignored -> new AtomicLong());
    counter.incrementAndGet();
    List<DeliveryOutcome> outcomes =
        receivers.size() == 1 ? null : Collections.synchronizedList(new ArrayList<>());
    AtomicInteger remaining = new AtomicInteger(receivers.size());
    RetryPolicy providerPolicy = providerRetryPolicy.get();
    Duration timeout = settleTimeout.get();
    for (Receiver each : receivers) {
      // The kernel made every receiver (MailboxProvider.subscribe); a transport only stores them.
      ProviderSubscription receiver = (ProviderSubscription) each;
      RetryPolicy policy = receiver.options().retry().orElse(providerPolicy);
      DeliveryChain[] self = new DeliveryChain[1];
      self[0] =
          new DeliveryChain(
              handedOut,
              receiver.subscriber(),
              policy,
              timeout,
              watchdog,
              scheduler,
              receiver::isActive,
              counts.onRetry,
              () -> LOG.info(() -> "Retries exhausted for " + handedOut + " at " + topic),
              outcome -> {
                receiver.untrack(self[0]);
                if (outcomes == null) { // one receiver, the common case: no list to gather
                  counter.decrementAndGet();
                  settle(topic, handedOut, List.of(outcome));
                  return;
                }
                outcomes.add(outcome);
                if (remaining.decrementAndGet() == 0) {
                  counter.decrementAndGet();
                  settle(topic, handedOut, List.copyOf(outcomes));
                }
              });
      receiver.track(self[0]);
      self[0].start();
    }
  }

  private void settle(MailAddress topic, MailMessage copy, List<DeliveryOutcome> outcomes) {
    if (outcomes.size() == 1 && outcomes.get(0).handled()) {
      settlement.acknowledge(topic, copy); // the common case, without a stream per message
      return;
    }
    List<DeliveryOutcome> failed = outcomes.stream().filter(o -> !o.handled()).toList();
    if (failed.size() < outcomes.size()) {
      settlement.acknowledge(topic, copy);
      if (!failed.isEmpty()) {
        DeliveryOutcome first = failed.get(0);
        settlement.giveUp(
            topic, copy, first.deadLetterReason(), maxAttempts(failed), first.failure());
      }
      return;
    }
    if (failed.stream().anyMatch(o -> o.disposition().equals(Disposition.UNHANDLED))) {
      settlement.requeue(topic, copy);
      return;
    }
    settlement.giveUp(topic, copy, "fatal", maxAttempts(failed), failed.get(0).failure());
  }

  private static int maxAttempts(List<DeliveryOutcome> outcomes) {
    return outcomes.stream().mapToInt(DeliveryOutcome::attempts).max().orElse(1);
  }

  /** Broadcasts of {@code topic} whose deliveries have not all ended yet. */
  long inFlight(MailAddress topic) {
    AtomicLong count = inFlight.get(topic);
    return count == null ? 0 : count.get();
  }

  /** How many addresses the counter has entries for. */
  long addresses() {
    return inFlight.size();
  }

  /** All broadcasts not yet settled. */
  long total() {
    return inFlight.values().stream().mapToLong(AtomicLong::get).sum();
  }
}
