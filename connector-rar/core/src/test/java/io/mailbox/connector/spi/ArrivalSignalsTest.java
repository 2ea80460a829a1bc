package io.mailbox.connector.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The registry {@code mem:} and {@code file:} keep their waiting consumers in: no wake-up is lost
 * when a post races a consumer that is about to wait, and idle steps wake nobody.
 */
class ArrivalSignalsTest {
  private final ArrivalSignals signals = new ArrivalSignals();
  private final AtomicInteger queued = new AtomicInteger();

  @Test
  void aPostRacingAConsumerThatIsAboutToWaitAlwaysWakesIt() throws Exception {
    int posts = 50_000;
    Thread poster =
        new Thread(
            () -> {
              for (int i = 0; i < posts; i++) {
                for (int spin = ThreadLocalRandom.current().nextInt(200); spin > 0; spin--) {
                  Thread.onSpinWait();
                }
                queued.incrementAndGet(); // the enqueue, then the signal, as a transport does
                signals.queued(() -> queued.get() > 0);
              }
            });
    poster.start();
    int taken = 0;
    while (taken < posts) {
      int now = queued.getAndSet(0); // the consumer takes what is queued
      taken += now;
      if (taken == posts) {
        break;
      }
      CountDownLatch woken = new CountDownLatch(1);
      signals.await(
          () -> {
            boolean any = queued.get() > 0;
            Thread.yield(); // a slow look, as file: lists a folder: a post may land meanwhile
            return any;
          },
          woken::countDown);
      assertThat(woken.await(5, TimeUnit.SECONDS))
          .as("woken after taking %d of %d (a lost wake-up waits for ever)", taken, posts)
          .isTrue();
    }
    poster.join();
  }

  @Test
  void aSignalRunsOnceAndAStepThatQueuedNothingWakesNobody() {
    AtomicInteger runs = new AtomicInteger();
    signals.await(() -> false, runs::incrementAndGet);

    signals.queued(() -> false); // a take that left the queue empty
    assertThat(runs).hasValue(0);
    signals.queued(() -> true);
    signals.queued(() -> true);
    assertThat(runs).hasValue(1);

    Runnable cancel = signals.await(() -> false, runs::incrementAndGet);
    cancel.run();
    signals.queued(() -> true);
    assertThat(runs).hasValue(1);
  }

  @Test
  void aLookThatFailsWakesTheWaitingInsteadOfFailingThePostAndAFailedAwaitKeepsNothing() {
    AtomicInteger runs = new AtomicInteger();
    signals.await(() -> false, runs::incrementAndGet);
    signals.queued(
        () -> {
          throw new java.io.UncheckedIOException(new java.io.IOException("listing failed"));
        });
    assertThat(runs).as("woken: a needless fetch, never a failed post").hasValue(1);

    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                signals.await(
                    () -> {
                      throw new IllegalStateException("listing failed");
                    },
                    runs::incrementAndGet))
        .isInstanceOf(IllegalStateException.class);
    AtomicInteger looks = new AtomicInteger();
    signals.queued(() -> looks.incrementAndGet() > 0);
    assertThat(looks).as("nobody waits: a post does not look").hasValue(0);
  }
}
