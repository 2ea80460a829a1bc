package io.mailbox.ejb.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CachedProbeTest {
  private static final Duration TTL = Duration.ofSeconds(5);
  private static final Duration BOUND = Duration.ofMillis(200);

  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final AtomicLong now = new AtomicLong();
  private final AtomicInteger runs = new AtomicInteger();
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void stop() {
    release.countDown();
    executor.shutdownNow();
  }

  @Test
  void anAnswerIsReusedForItsTtlAndReadAgainAfter() {
    CachedProbe<Integer> probe =
        new CachedProbe<>(runs::incrementAndGet, executor, now::get, TTL, BOUND);

    assertThat(probe.answer().value()).isEqualTo(1);
    now.addAndGet(TTL.toNanos() - 1);
    assertThat(probe.answer().value()).as("within the TTL: the same answer").isEqualTo(1);
    now.addAndGet(1);
    assertThat(probe.answer().value()).as("after it: read again").isEqualTo(2);
  }

  @Test
  void aHungProbeTimesOutWithinTheBoundAndNoSecondOneStartsWhileItHangs() throws Exception {
    CachedProbe<Integer> probe = new CachedProbe<>(this::hang, executor);

    long started = System.nanoTime();
    CachedProbe.Answer<Integer> first = probe.answer();
    long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

    assertThat(first.timedOut()).isTrue();
    assertThat(waitedMillis)
        .as("waited about the bound, %d ms", CachedProbe.BOUND.toMillis())
        .isBetween(CachedProbe.BOUND.toMillis() - 50, CachedProbe.BOUND.toMillis() + 1_000);
    long again = System.nanoTime();
    assertThat(probe.answer().timedOut()).isTrue();
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - again))
        .as("a probe already past its bound: answered at once")
        .isLessThan(100);
    assertThat(runs).as("one thread held by the hang, not one per poll").hasValue(1);

    release.countDown();
    awaitRuns(1);
    Thread.sleep(50); // its answer is stored after it returned
    assertThat(probe.answer().value()).as("the hung probe's late answer").isEqualTo(1);
  }

  @Test
  void probesReadTogetherHangSideBySideSoTwoChecksWaitAboutOneBound() {
    CachedProbe<Integer> first = new CachedProbe<>(this::hang, executor);
    CachedProbe<Integer> second = new CachedProbe<>(this::hang, executor);
    CachedProbe.together(first, second);

    long started = System.nanoTime();
    assertThat(first.answer().timedOut()).isTrue();
    assertThat(second.answer().timedOut()).isTrue();
    long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

    assertThat(waitedMillis)
        .as("both checks in about one bound (%d ms), not one each", CachedProbe.BOUND.toMillis())
        .isLessThan(CachedProbe.BOUND.toMillis() + 500);
    assertThat(runs).hasValue(2);
  }

  @Test
  void aFailingProbeAnswersItsFailure() {
    CachedProbe<Integer> probe =
        new CachedProbe<>(
            () -> {
              throw new IllegalStateException("database gone");
            },
            executor,
            now::get,
            TTL,
            BOUND);

    CachedProbe.Answer<Integer> answer = probe.answer();

    assertThat(answer.timedOut()).isFalse();
    assertThat(answer.failure()).hasMessage("database gone");
  }

  @Test
  void anExecutorThatRefusesIsAFailureNotAHang() {
    CachedProbe<Integer> probe =
        new CachedProbe<>(
            runs::incrementAndGet,
            task -> {
              throw new RejectedExecutionException("stopping");
            },
            now::get,
            TTL,
            BOUND);

    assertThat(probe.answer().failure()).isInstanceOf(RejectedExecutionException.class);
  }

  private Integer hang() {
    int run = runs.incrementAndGet();
    try {
      release.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return run;
  }

  private void awaitRuns(int count) throws InterruptedException {
    for (int i = 0; i < 100 && runs.get() < count; i++) {
      Thread.sleep(10);
    }
  }
}
