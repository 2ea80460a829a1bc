package io.mailbox.connector.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.AddressTraffic;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The kernel's publish bound for a transport without its own (a provider someone else wrote): a
 * transport that never answers fails the post within the bound with {@code MBX-2009}, its own
 * failures reach the caller unchanged, and a hung transport holds a bounded number of threads.
 */
class PublishWatchTest {
  private static final MailAddress TO = MailAddress.parse("hang://orders@shop/placed");

  private final CountDownLatch answer = new CountDownLatch(1);
  private final AtomicInteger sent = new AtomicInteger();
  private volatile RuntimeException failure;
  private final MailboxProvider provider = MailboxProvider.of(new Hanging());

  @AfterEach
  void release() {
    answer.countDown();
    provider.stop(false);
  }

  @Test
  void aPostTheTransportNeverConfirmsFailsWithinTheBoundSayingItMayStillArrive() {
    provider.start();
    provider.setPublishTimeout(Duration.ofMillis(300));
    long began = System.nanoTime();

    assertThatThrownBy(() -> provider.post(MailMessage.to(TO).body("{}").build()))
        .hasMessageStartingWith(ErrorCode.PUBLISH_TIMEOUT.code())
        .hasMessageContaining(TO.toString())
        .hasMessageContaining("300 ms (publishTimeoutMillis)")
        .hasMessageContaining("may still arrive");
    assertThatThrownBy(() -> provider.postAll(List.of(MailMessage.to(TO).body("{}").build())))
        .hasMessageStartingWith(ErrorCode.PUBLISH_TIMEOUT.code());

    assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(3));
    assertThat(provider.traffic())
        .singleElement()
        .extracting(AddressTraffic::publishFailures)
        .isEqualTo(2L);
    answer.countDown();
  }

  @Test
  void aTransportsOwnFailureAndSuccessReachTheCallerAsIfItRanOnItsThread() {
    provider.start();
    answer.countDown();
    provider.post(MailMessage.to(TO).body("{}").build());
    assertThat(sent).hasValue(1);

    failure = new IllegalStateException("broker said no");
    assertThatThrownBy(() -> provider.post(MailMessage.to(TO).body("{}").build()))
        .isSameAs(failure);
  }

  @Test
  void aHungTransportHoldsAtMost64ThreadsFurtherPostsFailAtOnce() {
    long before = watchThreads(); // other tests' providers' threads, idle until they expire
    provider.start();
    provider.setPublishTimeout(Duration.ofMillis(50));
    for (int n = 0; n < PublishWatch.MAX_WAITING; n++) {
      assertThatThrownBy(() -> provider.post(MailMessage.to(TO).body("{}").build()))
          .hasMessageStartingWith(ErrorCode.PUBLISH_TIMEOUT.code());
    }
    long began = System.nanoTime();
    assertThatThrownBy(() -> provider.post(MailMessage.to(TO).body("{}").build()))
        .hasMessageStartingWith(ErrorCode.PUBLISH_TIMEOUT.code())
        .hasMessageContaining("64 earlier posts still wait");
    assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofMillis(50));
    assertThat(watchThreads() - before).isLessThanOrEqualTo(PublishWatch.MAX_WAITING);
  }

  private static long watchThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("mailbox-publish-hang-"))
        .count();
  }

  /** A transport whose sends wait until the test lets them answer (a broker that hangs). */
  private final class Hanging extends SendOnlyTransport {
    Hanging() {
      super("hang");
    }

    @Override
    public void send(MailAddress topic, MailMessage copy) {
      try {
        answer.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (failure != null) {
        throw failure;
      }
      sent.incrementAndGet();
    }
  }
}
