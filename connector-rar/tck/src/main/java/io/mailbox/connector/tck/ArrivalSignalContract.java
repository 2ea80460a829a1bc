package io.mailbox.connector.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.Capabilities;
import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The conformance kit's arrival signals ({@code arrival-signal}, {@code spi.SignalsArrivals}): a
 * signal runs once, as soon as its address has a queued copy — at once when it has one, on the next
 * post, on a copy given back or a reclaimed lease — never again for the same arming, never after it
 * was cancelled, and a failing signal never fails the post. Also here: a fetch of several leased
 * copies gives each its own lease. Skipped where the provider does not declare the capability. Part
 * of {@link ProviderContract}; not meant to be extended on its own.
 */
public abstract class ArrivalSignalContract extends ContractFixture {

  @Test
  void aSignalRunsOnceOnTheNextPostNotBeforeAndNotAgain() {
    assumeCapability(Capabilities.ARRIVAL_SIGNAL);
    MailAddress inbox = address("arrivals");
    AtomicInteger signals = new AtomicInteger();

    provider.onNextArrival(inbox, signals::incrementAndGet);
    assertThat(signals).as("nothing queued yet").hasValue(0);

    provider.post(letter(inbox, "a"));
    assertThat(signals).as("given by the post itself, before it returns").hasValue(1);
    provider.post(letter(inbox, "b"));
    assertThat(signals).as("once per arming").hasValue(1);

    provider.onNextArrival(inbox, signals::incrementAndGet);
    assertThat(signals).as("a copy is queued: at once").hasValue(2);
  }

  @Test
  void aCancelledSignalNeverRunsAndAFailingOneNeverFailsThePost() {
    assumeCapability(Capabilities.ARRIVAL_SIGNAL);
    MailAddress inbox = address("cancelled");
    AtomicInteger signals = new AtomicInteger();

    provider.onNextArrival(inbox, signals::incrementAndGet).run();
    provider.onNextArrival(
        inbox,
        () -> {
          throw new IllegalStateException("a consumer's bug");
        });
    provider.post(letter(inbox, "a"));

    assertThat(signals).as("cancelled before the post").hasValue(0);
    assertThat(fetchAll(inbox)).as("the post was queued all the same").hasSize(1);
  }

  @Test
  void aCopyGivenBackSignalsTheConsumersWaitingForTheQueue() {
    assumeCapability(Capabilities.ARRIVAL_SIGNAL);
    MailAddress inbox = address("given-back");
    Delivery leased = queueOneAndLease(inbox, "a");
    AtomicInteger signals = new AtomicInteger();
    provider.onNextArrival(inbox, signals::incrementAndGet);
    assertThat(signals).as("the only copy is in flight").hasValue(0);

    assertThat(leased.settle(Disposition.UNHANDLED)).isTrue();

    await("signalled", () -> signals.get() == 1);
  }

  @Test
  void aReclaimedLeaseSignalsTheConsumersWaitingForTheQueue() throws InterruptedException {
    assumeCapability(Capabilities.ARRIVAL_SIGNAL);
    assumeCapability(Capabilities.RECOVER);
    MailAddress inbox = address("reclaimed");
    provider.post(letter(inbox, "a"));
    await("queued", () -> provider.status(inbox).unreadCount() == 1);
    provider.fetch(inbox, FetchOptions.leased(java.time.Duration.ofMillis(50)));
    AtomicInteger signals = new AtomicInteger();
    provider.onNextArrival(inbox, signals::incrementAndGet);

    Thread.sleep(150); // the lease has ended; nothing has taken the copy back yet
    assertThat(signals).hasValue(0);
    provider.recover(inbox);

    await("signalled", () -> signals.get() == 1);
  }

  @Test
  void whatALeasedFetchTakesBackAndLeavesSignalsTheConsumersWaiting() throws InterruptedException {
    assumeCapability(Capabilities.ARRIVAL_SIGNAL);
    MailAddress inbox = address("taken-back");
    provider.post(letter(inbox, "a"));
    provider.post(letter(inbox, "b"));
    await("queued", () -> provider.status(inbox).unreadCount() == 2);
    provider.fetch(inbox, FetchOptions.leased(java.time.Duration.ofMillis(50)).limit(2));
    AtomicInteger signals = new AtomicInteger();
    provider.onNextArrival(inbox, signals::incrementAndGet);
    Thread.sleep(150); // both leases have ended

    // The fetch's own sweep takes both back and hands one out: the other is for the waiting one.
    assertThat(provider.fetch(inbox, FetchOptions.leased().limit(1))).hasSize(1);

    await("signalled", () -> signals.get() == 1);
  }

  @Test
  void aFetchOfSeveralLeasedCopiesGivesEachALeaseOfItsOwn() {
    assumeCapability(Capabilities.LEASE);
    MailAddress inbox = address("several");
    for (String id : List.of("a", "b", "c")) {
      provider.post(letter(inbox, id));
    }
    await("queued", () -> provider.status(inbox).unreadCount() == 3);

    List<Delivery> leased = provider.fetch(inbox, FetchOptions.leased().limit(3));

    assertThat(leased)
        .extracting(delivery -> delivery.message().id())
        .containsExactly("a", "b", "c");
    assertThat(Set.copyOf(leased.stream().map(d -> d.leaseId().orElseThrow()).toList())).hasSize(3);
    assertThat(leased.get(1).settle(Disposition.UNHANDLED)).as("one settled alone").isTrue();
    assertThat(leased.get(0).ack()).isTrue();
    assertThat(leased.get(2).ack()).isTrue();
    await("b back alone", () -> provider.status(inbox).unreadCount() == 1);
    assertThat(fetchAll(inbox)).extracting(message -> message.id()).containsExactly("b");
  }
}
