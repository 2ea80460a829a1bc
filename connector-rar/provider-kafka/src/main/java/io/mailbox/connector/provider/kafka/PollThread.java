package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.spi.Backoff;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.common.errors.WakeupException;

/**
 * What both readers run on: one thread that owns a Kafka consumer (consumers are single-threaded),
 * the tasks other threads leave for it between polls, a dispatch thread that hands records to
 * subscribers in order (a slow subscriber never holds the poll up), and the loop that replaces a
 * failed consumer after a pause doubling from 1 s to 30 s, so a reader never dies while in use.
 */
final class PollThread {

  private static final Logger LOG = Logger.getLogger(PollThread.class.getName());
  private static final Duration MAX_RESTART_PAUSE = Duration.ofSeconds(30);

  private final String name;
  private final Thread thread;
  private final ExecutorService dispatcher;
  private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
  private volatile boolean running = true;

  /**
   * @param newConsumer makes and subscribes a new consumer (again after a failure)
   * @param pollUntilStopped polls it until the stop or a failure
   * @param closeConsumer commits what it can and closes it, whatever happened
   */
  PollThread(String name, Runnable newConsumer, Runnable pollUntilStopped, Runnable closeConsumer) {
    this.name = name;
    this.thread =
        new Thread(
            () -> run(newConsumer, pollUntilStopped, closeConsumer), "mailbox-kafka-poll-" + name);
    this.thread.setDaemon(true);
    this.dispatcher =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "mailbox-kafka-dispatch-" + name);
              t.setDaemon(true);
              return t;
            });
  }

  void start() {
    thread.start();
  }

  boolean running() {
    return running;
  }

  /** Leaves a task for the poll thread (a settlement, a retry). */
  void add(Runnable task) {
    tasks.add(task);
  }

  /** Runs every task waiting (on the poll thread). */
  void runTasks() {
    Runnable task;
    while ((task = tasks.poll()) != null) {
      task.run();
    }
  }

  /** Waits at most {@code bound} for a task, then runs every task waiting (on the poll thread). */
  void awaitTask(Duration bound) {
    try {
      Runnable task = tasks.poll(bound.toNanos(), TimeUnit.NANOSECONDS);
      if (task != null) {
        task.run();
        runTasks();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running = false;
    }
  }

  /** Hands {@code batch} to {@code push} on the dispatch thread, in order, each on its own. */
  void dispatch(List<MailMessage> batch, Consumer<MailMessage> push) {
    if (!batch.isEmpty()) {
      dispatcher.execute(() -> batch.forEach(push));
    }
  }

  /**
   * Stops: the loop ends, the consumer's poll is woken by {@code wakeUp}; waits at most {@code
   * bound}.
   */
  void stop(Runnable wakeUp, Duration bound) {
    running = false;
    wakeUp.run();
    try {
      thread.join(bound.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    dispatcher.shutdownNow(); // batches not handed over yet: their records are read again
  }

  private void run(Runnable newConsumer, Runnable pollUntilStopped, Runnable closeConsumer) {
    int failures = 0;
    while (running) {
      long started = System.nanoTime();
      try {
        newConsumer.run();
        pollUntilStopped.run();
      } catch (WakeupException stopping) {
        // stop() woke the poll up
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "The Kafka reader of " + name + " failed; starting it again", e);
      } finally {
        closeConsumer.run();
      }
      if (running) {
        boolean ranAWhile = System.nanoTime() - started > Duration.ofMinutes(1).toNanos();
        failures = ranAWhile ? 1 : failures + 1;
        sleep(Backoff.after(failures, Duration.ofSeconds(1), MAX_RESTART_PAUSE));
      }
    }
  }

  private static void sleep(Duration pause) {
    try {
      Thread.sleep(pause.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
