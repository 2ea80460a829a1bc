package io.mailbox.ejb.health;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A health probe that cannot hold {@code /health} open: it runs on an executor, at most one at a
 * time, its answer is kept for {@link #TTL}, and a caller waits for it at most {@link #BOUND}. A
 * database or broker that hangs gives "timed out" within the bound to every caller, while the one
 * hung probe stays the only thread it holds (a new one starts only after it returned).
 *
 * @param <T> what the probe reads (a snapshot, the outbox's counts)
 */
final class CachedProbe<T> {
  /** How long an answer is reused: probes every few seconds cost one read per TTL, not per poll. */
  static final Duration TTL = Duration.ofSeconds(5);

  /** How long a caller waits for a probe; a load balancer's own timeout is usually 5 s or more. */
  static final Duration BOUND = Duration.ofSeconds(2);

  /**
   * One answer: the value read, or the failure, or neither when the probe did not answer in time.
   */
  record Answer<T>(T value, RuntimeException failure) {
    static <T> Answer<T> timeout() {
      return new Answer<>(null, null);
    }

    boolean timedOut() {
      return value == null && failure == null;
    }
  }

  private final Supplier<T> probe;
  private final Executor executor;
  private final LongSupplier nanoTime;
  private final long ttlNanos;
  private final long boundNanos;

  private Answer<T> cached;
  private long cachedAt;
  private CompletableFuture<Answer<T>> running;
  private long runningSince;
  private volatile List<CachedProbe<?>> siblings = List.of();

  CachedProbe(Supplier<T> probe, Executor executor) {
    this(probe, executor, System::nanoTime, TTL, BOUND);
  }

  CachedProbe(
      Supplier<T> probe, Executor executor, LongSupplier nanoTime, Duration ttl, Duration bound) {
    this.probe = Objects.requireNonNull(probe, "probe");
    this.executor = Objects.requireNonNull(executor, "executor");
    this.nanoTime = nanoTime;
    this.ttlNanos = ttl.toNanos();
    this.boundNanos = bound.toNanos();
  }

  /**
   * Probes read together: asking one starts the others too, so that the checks of one {@code
   * /health/ready} wait for probes that ran side by side, about one bound in all, not one each.
   */
  @SafeVarargs
  static void together(CachedProbe<?>... probes) {
    for (CachedProbe<?> probe : probes) {
      probe.siblings = List.of(probes);
    }
  }

  /** Starts a probe when the answer is stale and none runs; never waits. */
  synchronized void refresh() {
    long now = nanoTime.getAsLong();
    if ((cached == null || now - cachedAt >= ttlNanos) && running == null) {
      start(now);
    }
  }

  /**
   * The cached answer if fresh; else the running or a new probe's, waited for at most the bound.
   */
  Answer<T> answer() {
    CompletableFuture<Answer<T>> waitFor;
    long waitNanos;
    synchronized (this) {
      long now = nanoTime.getAsLong();
      if (cached != null && now - cachedAt < ttlNanos) {
        return cached;
      }
      if (running == null) {
        try {
          waitFor = start(now);
        } catch (RejectedExecutionException e) {
          return new Answer<>(null, e); // the server is stopping, or its threads are all taken
        }
      } else {
        waitFor = running;
      }
      waitNanos = boundNanos - (now - runningSince);
    }
    for (CachedProbe<?> sibling : siblings) {
      if (sibling != this) {
        try {
          sibling.refresh();
        } catch (RejectedExecutionException e) {
          // the sibling answers the refusal itself when it is asked
        }
      }
    }
    if (waitNanos <= 0) {
      return Answer.timeout(); // a probe already hangs past the bound: no second thread for it
    }
    try {
      return waitFor.get(waitNanos, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      return Answer.timeout();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Answer.timeout();
    } catch (ExecutionException e) {
      return new Answer<>(null, new IllegalStateException(e.getCause()));
    }
  }

  /** Called holding the lock, with no probe running. */
  private CompletableFuture<Answer<T>> start(long now) {
    CompletableFuture<Answer<T>> started = CompletableFuture.supplyAsync(this::run, executor);
    running = started;
    runningSince = now;
    // An executor that ran it already stores it here, at once: the caller keeps the future.
    started.thenAccept(this::store);
    return started;
  }

  private Answer<T> run() {
    try {
      return new Answer<>(Objects.requireNonNull(probe.get(), "a probe answered null"), null);
    } catch (RuntimeException e) {
      return new Answer<>(null, e);
    }
  }

  private synchronized void store(Answer<T> answer) {
    cached = answer;
    cachedAt = nanoTime.getAsLong();
    running = null;
  }
}
