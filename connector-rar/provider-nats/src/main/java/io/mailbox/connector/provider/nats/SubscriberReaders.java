package io.mailbox.connector.provider.nats;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.spi.Backoff;
import io.mailbox.connector.spi.Receiver;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.PullSubscribeOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The subscribers of each address in this process and the one reader thread they share: it pulls
 * batches from the address's durable consumer (bound, never created here) and hands each message to
 * the provider, while fewer than {@value #MAX_UNSETTLED} of the address's messages are unsettled
 * here; the acknowledgements of what a batch settled at once are confirmed together after it. A
 * failing pull (the server away) is retried after a pause doubling to 10 s; the server redelivers
 * what was unacknowledged after its ack wait.
 */
final class SubscriberReaders {
  static final int MAX_UNSETTLED = 1_000;
  private static final Logger LOG = Logger.getLogger(SubscriberReaders.class.getName());
  private static final int BATCH = 256;
  private static final Duration PULL_WAIT = Duration.ofMillis(250);

  private final Function<MailAddress, PullSubscribeOptions> bind;
  private final Function<MailAddress, String> subject;
  private final NatsLink link;
  private final BiConsumer<MailAddress, Message> deliver;
  private final ToLongFunction<MailAddress> unsettled;
  private final Consumer<Runnable> inBatch;
  private final Map<MailAddress, List<Receiver>> subscribers = new ConcurrentHashMap<>();
  private final Map<MailAddress, Thread> readers = new ConcurrentHashMap<>();

  SubscriberReaders(
      NatsLink link,
      Function<MailAddress, String> subject,
      Function<MailAddress, PullSubscribeOptions> bind,
      BiConsumer<MailAddress, Message> deliver,
      ToLongFunction<MailAddress> unsettled,
      Consumer<Runnable> inBatch) {
    this.inBatch = inBatch;
    this.link = link;
    this.subject = subject;
    this.bind = bind;
    this.deliver = deliver;
    this.unsettled = unsettled;
  }

  /** Adds a receiver; the handle removes it, and the reader stops after the last one leaves. */
  AutoCloseable add(MailAddress address, Receiver receiver) {
    List<Receiver> list = subscribers.computeIfAbsent(address, a -> new CopyOnWriteArrayList<>());
    list.add(receiver);
    readers.computeIfAbsent(address, this::startReader);
    return () -> list.remove(receiver);
  }

  List<Receiver> receivers(MailAddress address) {
    return subscribers.getOrDefault(address, List.of()).stream()
        .filter(Receiver::isActive)
        .toList();
  }

  java.util.Set<MailAddress> addresses() {
    return subscribers.keySet();
  }

  /** Stops every reader (the provider stops); what they held is redelivered by the server. */
  void stopAll() {
    readers.values().forEach(Thread::interrupt);
    readers.values().forEach(SubscriberReaders::join);
    readers.clear();
  }

  private Thread startReader(MailAddress address) {
    Thread thread = new Thread(() -> read(address), "mailbox-nats-reader-" + address.mailbox());
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  private void read(MailAddress address) {
    JetStreamSubscription subscription = null;
    int failures = 0;
    try {
      while (!Thread.currentThread().isInterrupted() && !receivers(address).isEmpty()) {
        try {
          if (subscription == null) {
            subscription = link.jetStream().subscribe(subject.apply(address), bind.apply(address));
          }
          if (unsettled.applyAsLong(address) >= MAX_UNSETTLED) {
            Thread.sleep(5);
            continue;
          }
          List<Message> batch = subscription.fetch(BATCH, PULL_WAIT);
          inBatch.accept(() -> batch.forEach(message -> deliver.accept(address, message)));
          if (failures > 0) {
            LOG.info(() -> "Reading " + address + " from NATS again");
          }
          failures = 0;
        } catch (InterruptedException stopping) {
          Thread.currentThread().interrupt();
        } catch (RuntimeException | java.io.IOException | io.nats.client.JetStreamApiException e) {
          failures++;
          int attempt = failures;
          LOG.log(
              attempt == 1 ? Level.WARNING : Level.FINE,
              "Could not read "
                  + address
                  + " from NATS (retrying): "
                  + e.getClass().getSimpleName(),
              attempt == 1 ? null : e);
          subscription = unsubscribe(subscription);
          pause(Backoff.after(failures, Duration.ofMillis(200), Duration.ofSeconds(10)));
        }
      }
    } finally {
      unsubscribe(subscription);
      readers.remove(address, Thread.currentThread());
      // A subscriber that came while this reader was leaving gets a reader of its own.
      if (!receivers(address).isEmpty() && !Thread.currentThread().isInterrupted()) {
        readers.computeIfAbsent(address, this::startReader);
      }
    }
  }

  private static JetStreamSubscription unsubscribe(JetStreamSubscription subscription) {
    if (subscription != null) {
      try {
        subscription.unsubscribe();
      } catch (RuntimeException e) {
        LOG.log(Level.FINE, "A NATS pull subscription did not close cleanly", e);
      }
    }
    return null;
  }

  private static void pause(Duration pause) {
    try {
      Thread.sleep(pause.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void join(Thread thread) {
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
