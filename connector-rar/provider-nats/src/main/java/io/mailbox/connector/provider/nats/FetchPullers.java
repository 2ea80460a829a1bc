package io.mailbox.connector.provider.nats;

import io.mailbox.connector.api.MailAddress;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.PullSubscribeOptions;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Fetches from the addresses' durable consumers: one pull subscription per address in this process
 * (bound to the consumer every server shares), one fetch at a time on it. A fetch asks the server
 * for what it has now ({@code no_wait}) and returns when the server says there is no more, so an
 * empty address answers in one round trip.
 */
final class FetchPullers {
  private static final Duration ANSWER_BOUND = Duration.ofSeconds(2);

  private final NatsLink link;
  private final Function<MailAddress, String> subject;
  private final Function<MailAddress, PullSubscribeOptions> bind;
  private final Map<MailAddress, JetStreamSubscription> subscriptions = new ConcurrentHashMap<>();

  FetchPullers(
      NatsLink link,
      Function<MailAddress, String> subject,
      Function<MailAddress, PullSubscribeOptions> bind) {
    this.link = link;
    this.subject = subject;
    this.bind = bind;
  }

  /** Up to {@code limit} messages the consumer has now, oldest first. */
  List<Message> take(MailAddress address, int limit) {
    JetStreamSubscription subscription = subscription(address);
    synchronized (subscription) {
      List<Message> taken = new ArrayList<>();
      try {
        subscription.pullNoWait(limit, ANSWER_BOUND);
        while (taken.size() < limit) {
          Message next = subscription.nextMessage(ANSWER_BOUND);
          if (next == null) {
            break; // the server said it has no more (or did not answer in time)
          }
          if (next.isJetStream()) {
            taken.add(next);
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (RuntimeException e) {
        forget(address);
        if (taken.isEmpty()) {
          throw link.unavailable("did not answer a fetch of " + address, e);
        }
      }
      return taken;
    }
  }

  private JetStreamSubscription subscription(MailAddress address) {
    return subscriptions.computeIfAbsent(
        address,
        a -> {
          try {
            return link.jetStream().subscribe(subject.apply(a), bind.apply(a));
          } catch (IOException | JetStreamApiException e) {
            throw link.unavailable("refused a pull subscription for " + a, e);
          }
        });
  }

  /** Drops an address's subscription (it failed); the next fetch makes a new one. */
  void forget(MailAddress address) {
    JetStreamSubscription gone = subscriptions.get(address);
    if (gone != null && subscriptions.remove(address, gone)) {
      try {
        gone.unsubscribe();
      } catch (RuntimeException closedAlready) {
        // the connection went with it
      }
    }
  }

  void closeAll() {
    List.copyOf(subscriptions.keySet()).forEach(this::forget);
  }
}
