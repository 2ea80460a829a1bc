package io.mailbox.messaging;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxConnectionFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.reactivestreams.Publisher;
import org.reactivestreams.tck.PublisherVerification;
import org.reactivestreams.tck.TestEnvironment;
import org.testng.annotations.AfterClass;

/**
 * The Reactive Streams TCK (1.0.4) against an incoming channel's publisher: demand, cancellation,
 * {@code request(n <= 0)}, re-entrant {@code request} from {@code onNext}, a pending demand up to
 * {@code Long.MAX_VALUE}. A channel reads its address for as long as it is subscribed, so it never
 * completes: the TCK's rules that need {@code onComplete} are skipped, as the TCK provides for such
 * publishers, and so is the failed-publisher rule (a fetch that fails is retried, never signalled:
 * an outage must not end the channel). The address is a fake connection handing out {@code
 * elements} leased deliveries; nothing is acknowledged (the TCK's subscribers do not ack), so
 * max-in-flight is set beyond any demand the TCK makes.
 */
public class MailboxPublisherTckTest extends PublisherVerification<Message<?>> {
  private static final MailAddress ADDRESS = MailAddress.parse("mem:tck@mailbox/channel");

  private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(4);

  public MailboxPublisherTckTest() {
    super(new TestEnvironment(1_000, 200));
  }

  @AfterClass
  public void stopExecutor() {
    executor.shutdownNow();
  }

  @Override
  public Publisher<Message<?>> createPublisher(long elements) {
    ChannelSettings settings =
        new ChannelSettings(
            "tck",
            ADDRESS,
            "mailbox/ConnectionFactory",
            Duration.ofSeconds(30),
            Integer.MAX_VALUE,
            3,
            Duration.ZERO,
            Duration.ZERO,
            Duration.ofMillis(5),
            Optional.empty(),
            ChannelSettings.Delivery.FETCH);
    MailboxConnectionFactory factory = factory(new AtomicLong(elements));
    return new MailboxPublisher(settings, () -> factory, executor, () -> false);
  }

  @Override
  public Publisher<Message<?>> createFailedPublisher() {
    return null; // a channel retries a failing fetch; it never signals onError for it
  }

  @Override
  public long maxElementsFromPublisher() {
    return publisherUnableToSignalOnComplete();
  }

  private static MailboxConnectionFactory factory(AtomicLong left) {
    return FakeConnections.factory(
        FakeConnections.connection(
            java.util.Map.of("fetch", args -> take(left, ((FetchOptions) args[1]).limit()))));
  }

  private static List<Delivery> take(AtomicLong left, int limit) {
    List<Delivery> taken = new ArrayList<>();
    while (taken.size() < limit && left.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      taken.add(new FakeDelivery(ADDRESS, "copy-" + left.get(), disposition -> true));
    }
    return taken;
  }
}
