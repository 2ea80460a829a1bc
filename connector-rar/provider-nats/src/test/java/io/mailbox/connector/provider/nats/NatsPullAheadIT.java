package io.mailbox.connector.provider.nats;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.kernel.MailboxSubscriber;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.testsupport.Eventually;
import io.mailbox.connector.testsupport.LeavingSubscriber;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A reader requests its next batch while it hands the current one over ({@link PullAhead}). What
 * those requests bring is delivered to this process before anyone holds it, so a reader whose last
 * subscriber left hands it back at once — a new subscriber gets the rest within seconds, not after
 * the 30 s ack wait — and nothing is lost on the way.
 */
class NatsPullAheadIT {
  private final String run = UUID.randomUUID().toString().substring(0, 8);
  private final String stream = "PULLAHEAD_" + run;
  private final MailAddress jobs = MailAddress.parse("nats://jobs@shop/work");
  private MailboxProvider provider;

  @BeforeEach
  void start() {
    NatsSettings settings =
        NatsSettings.defaults().withUrl(NatsServer.url()).withCreatedStream(stream, "pull-" + run);
    provider =
        MailboxProvider.of(new NatsProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
  }

  @AfterEach
  void stop() throws Exception {
    provider.stop(false);
    NatsServer.deleteStreams(stream);
  }

  @Test
  void whatAStoppingReaderPulledAheadIsHandedBackAtOnceNotAfterTheAckWait() throws Exception {
    LeavingSubscriber.postBacklog(provider, jobs, 2_000);
    Set<String> handled = ConcurrentHashMap.newKeySet();
    AtomicInteger first = LeavingSubscriber.subscribe(provider, jobs, 300, handled);
    Eventually.await("the first subscriber gone", Duration.ofSeconds(20), () -> first.get() >= 300);
    Thread.sleep(1_000); // its reader has drained its requests and left

    // What the first reader had taken and not handled is back for the next, not held.
    assertThat(provider.status(jobs).unreadCount()).isEqualTo(2_000L - handled.size());
    long start = System.nanoTime();
    provider.subscribe(jobs, MailboxSubscriber.of(m -> handled.add(m.id())));

    // The ack wait is 30 s: anything the first reader kept would come 30 s late.
    Eventually.await("every job handled", Duration.ofSeconds(10), () -> handled.size() == 2_000);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
  }
}
