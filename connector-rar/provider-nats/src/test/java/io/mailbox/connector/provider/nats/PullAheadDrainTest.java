package io.mailbox.connector.provider.nats;

import static org.assertj.core.api.Assertions.assertThat;

import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a stopping reader drains ({@link PullAhead#drain}): every message its requests bring is
 * returned to be handed back, even when it arrives late or behind a request's end. A message missed
 * here is dropped by the client once the reader unsubscribes and held by the server until its 30 s
 * ack wait (the rare CI failure of {@code NatsPullAheadIT} on 2026-12-07).
 *
 * <p>The subscription is a scripted fake of the client's queue: what the "server" delivers, and
 * when, is the test's.
 */
class PullAheadDrainTest {
  private static final Duration PULL_WAIT = Duration.ofMillis(250);

  /** A request's end as the client queues it: {@code nextMessage} answers {@code null} for it. */
  private static final Object REQUEST_END = new Object();

  private final LinkedBlockingQueue<Object> clientQueue = new LinkedBlockingQueue<>();
  private final AtomicInteger requests = new AtomicInteger();
  private final ScheduledExecutorService server = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stopServer() {
    server.shutdownNow();
  }

  @Test
  void messagesARequestBringsAfterItsLocalEndAreStillHandedBack() throws Exception {
    PullAhead pulls = new PullAhead(subscription(), PULL_WAIT);
    pulls.keepAhead(true);
    assertThat(requests.get()).isEqualTo(PullAhead.AHEAD);
    // The last request's messages reach the client's queue 600 ms after it was sent, past its local
    // end (pull wait + 100 ms): a client short of CPU parses them late. The drain starts well
    // before they come (200 ms of margin for a slow machine).
    server.schedule(() -> deliver(7), 600, TimeUnit.MILLISECONDS);
    Thread.sleep(400);

    assertThat(pulls.drain()).as("what came late is handed back").hasSize(7);
  }

  @Test
  void aRequestsEndInTheQueueIsSkippedNotTakenForTheEndOfTheQueue() throws Exception {
    PullAhead pulls = new PullAhead(subscription(), PULL_WAIT);
    clientQueue.add(REQUEST_END);
    deliver(5);
    clientQueue.add(REQUEST_END);
    deliver(3);

    assertThat(pulls.drain()).hasSize(8);
  }

  /**
   * The drift behind the CI failure: a request that ended here before its batch was taken gets that
   * batch charged to the next request, which then looks complete while its own messages are still
   * on the way.
   */
  @Test
  void aRequestWhoseCountWasChargedWithAnotherOnesBatchIsStillWaitedOut() throws Exception {
    PullAhead pulls = new PullAhead(subscription(), PULL_WAIT);
    pulls.keepAhead(true); // requests 1-3 at t0
    deliver(PullAhead.BATCH); // request 1's batch
    assertThat(pulls.nextBatch()).hasSize(PullAhead.BATCH);
    Thread.sleep(100);
    pulls.keepAhead(true); // request 4 at t0 + 100 ms
    assertThat(requests.get()).isEqualTo(PullAhead.AHEAD + 1);
    Thread.sleep(PULL_WAIT.toMillis() + 20);
    // Requests 2 and 3 ended here; request 4 too when this thread was held up for 80 ms more.
    assertThat(pulls.outstanding()).as("requests 2 and 3 ended here").isLessThanOrEqualTo(1);
    deliver(PullAhead.BATCH); // request 2's batch, late: charged to request 4
    assertThat(pulls.nextBatch()).hasSize(PullAhead.BATCH);
    assertThat(pulls.outstanding()).as("request 4 looks complete").isZero();
    server.schedule(() -> deliver(20), 50, TimeUnit.MILLISECONDS); // request 4's own

    assertThat(pulls.drain()).as("request 4's messages").hasSize(20);
  }

  @Test
  void aReaderThatNeverAskedDrainsOnlyWhatIsQueued() throws Exception {
    PullAhead pulls = new PullAhead(subscription(), PULL_WAIT);
    deliver(2);
    long started = System.nanoTime();

    List<Message> left = pulls.drain();

    assertThat(left).hasSize(2);
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .as("no request to wait out")
        .isLessThan(Duration.ofMillis(200));
  }

  private void deliver(int count) {
    for (int i = 0; i < count; i++) {
      clientQueue.add(message());
    }
  }

  private static Message message() {
    return (Message)
        Proxy.newProxyInstance(
            Message.class.getClassLoader(),
            new Class<?>[] {Message.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "hashCode" -> System.identityHashCode(proxy);
                  case "equals" -> proxy == args[0];
                  case "toString" -> "message";
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }

  /** The three calls {@link PullAhead} makes, on {@link #clientQueue}. */
  private JetStreamSubscription subscription() {
    return (JetStreamSubscription)
        Proxy.newProxyInstance(
            JetStreamSubscription.class.getClassLoader(),
            new Class<?>[] {JetStreamSubscription.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "pullExpiresIn" -> {
                    requests.incrementAndGet();
                    yield null;
                  }
                  case "getPendingMessageCount" -> (long) clientQueue.size();
                  case "nextMessage" -> {
                    Object next =
                        clientQueue.poll(((Duration) args[0]).toNanos(), TimeUnit.NANOSECONDS);
                    yield next == REQUEST_END ? null : next;
                  }
                  case "hashCode" -> System.identityHashCode(proxy);
                  case "equals" -> proxy == args[0];
                  case "toString" -> "subscription";
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }
}
