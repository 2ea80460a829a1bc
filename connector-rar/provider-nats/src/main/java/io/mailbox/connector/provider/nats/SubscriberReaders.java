package io.mailbox.connector.provider.nats;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.spi.Backoff;
import io.mailbox.connector.spi.Receiver;
import io.mailbox.connector.spi.SubscriberThreads;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.PullSubscribeOptions;
import java.time.Duration;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * How the reader thread of an address ({@link SubscriberThreads}) reads NATS: it pulls batches from
 * the address's durable consumer (bound, never created here) and hands each message to the
 * provider, while fewer than {@value #MAX_UNSETTLED} of the address's messages are unsettled here;
 * the acknowledgements of what a batch settled at once are confirmed together after it. The next
 * batch is requested before one is handed over ({@link PullAhead}). A failing pull (the server
 * away) is retried after a pause doubling to 10 s; the server redelivers what was unacknowledged
 * after its ack wait.
 */
final class SubscriberReaders {
  static final int MAX_UNSETTLED = 1_000;
  private static final Logger LOG = Logger.getLogger(SubscriberReaders.class.getName());
  private static final Duration PULL_WAIT = Duration.ofMillis(250);

  private final Function<MailAddress, PullSubscribeOptions> bind;
  private final Function<MailAddress, String> subject;
  private final NatsLink link;
  private final BiConsumer<MailAddress, List<Message>> deliver;
  private final ToLongFunction<MailAddress> unsettled;
  private final Consumer<Runnable> inBatch;
  private final SubscriberThreads threads =
      new SubscriberThreads("mailbox-nats-reader-", this::read);

  SubscriberReaders(
      NatsLink link,
      Function<MailAddress, String> subject,
      Function<MailAddress, PullSubscribeOptions> bind,
      BiConsumer<MailAddress, List<Message>> deliver,
      ToLongFunction<MailAddress> unsettled,
      Consumer<Runnable> inBatch) {
    this.inBatch = inBatch;
    this.link = link;
    this.subject = subject;
    this.bind = bind;
    this.deliver = deliver;
    this.unsettled = unsettled;
  }

  AutoCloseable add(MailAddress address, Receiver receiver) {
    return threads.add(address, receiver);
  }

  List<Receiver> receivers(MailAddress address) {
    return threads.receivers(address);
  }

  /** {@code last} while all of it is active, else the active receivers now. */
  List<Receiver> stillActive(MailAddress address, List<Receiver> last) {
    return threads.stillActive(address, last);
  }

  java.util.Set<MailAddress> addresses() {
    return threads.addresses();
  }

  /** Stops every reader (the provider stops); what they held is redelivered by the server. */
  void stopAll() {
    threads.stopAll();
  }

  private void read(MailAddress address, java.util.function.BooleanSupplier keepReading) {
    JetStreamSubscription subscription = null;
    PullAhead pulls = null;
    int failures = 0;
    try {
      while (keepReading.getAsBoolean()) {
        try {
          if (subscription == null) {
            subscription = link.jetStream().subscribe(subject.apply(address), bind.apply(address));
            pulls = new PullAhead(subscription, PULL_WAIT);
          }
          if (pulls.outstanding() == 0
              && pulls.queued() == 0
              && unsettled.applyAsLong(address) >= MAX_UNSETTLED) {
            Thread.sleep(5);
            continue;
          }
          pulls.keepAhead(roomFor(address, pulls, 0));
          List<Message> batch = pulls.nextBatch();
          // Read ahead: the next request goes out before this batch is handed over (the batch in
          // hand has left the client's queue and is not held yet: it counts too).
          pulls.keepAhead(keepReading.getAsBoolean() && roomFor(address, pulls, batch.size()));
          if (!batch.isEmpty()) {
            inBatch.accept(() -> deliver.accept(address, batch));
          }
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
          pulls = null;
          SubscriberThreads.pause(
              Backoff.after(failures, Duration.ofMillis(200), Duration.ofSeconds(10)));
        }
      }
      handBackPulledAhead(address, pulls);
    } finally {
      unsubscribe(subscription);
    }
  }

  /**
   * Whether one more request fits under the bound: what is unsettled here, what is in hand, what
   * waits in the client's queue, and what the requests out and the new one may bring.
   */
  private boolean roomFor(MailAddress address, PullAhead pulls, int inHand) {
    long coming = (long) (pulls.outstanding() + 1) * PullAhead.BATCH;
    return unsettled.applyAsLong(address) + inHand + pulls.queued() + coming <= MAX_UNSETTLED;
  }

  /**
   * The reader stops (its last subscriber left) with requests outstanding: what they still bring is
   * delivered to this process but held by nobody, so it is handed back at once ({@code NAK}, the
   * server counts the delivery) instead of after the ack wait. A provider stop (interrupt) skips
   * this: the server redelivers after the ack wait.
   */
  private static void handBackPulledAhead(MailAddress address, PullAhead pulls) {
    if (pulls == null || Thread.currentThread().isInterrupted()) {
      return;
    }
    try {
      pulls.drain().forEach(Message::nak);
    } catch (InterruptedException stopping) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.log(
          Level.FINE,
          "A stopping reader of " + address + " could not hand back what it pulled ahead",
          e);
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
}
