package io.mailbox.connector.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mailbox.connector.api.AddressTraffic;
import io.mailbox.connector.api.Capabilities;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.PublishOptions;
import io.mailbox.connector.api.TraceHeaders;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.testsupport.Eventually;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The conformance kit's publish options (issue 18): the ordering key, the de-duplication id and the
 * caller's headers reach the consumer on every provider, and options over their bounds or under a
 * reserved name are refused with {@code MBX-1004} before anything is stored, never repeating the
 * refused value; a post its broker does not confirm fails within the publish bound with {@code
 * MBX-2009} ({@link #unanswering()}). Part of {@link ProviderContract}; not meant to be extended on
 * its own.
 */
public abstract class PublishContract extends ArrivalSignalContract {
  private static final String SECRET = "private-value-7f3a";

  @Test
  void theOptionsAndTheCallersHeadersReachTheConsumer() {
    MailAddress inbox = address("options");
    provider.post(
        MailMessage.to(inbox)
            .id("o-1")
            .body("{}")
            .orderingKey("customer-42")
            .deduplicationId("o-1-v1")
            .header("tenant", "eu")
            .header("Content-Language", "de")
            .build());

    await("queued", () -> provider.status(inbox).unreadCount() == 1);
    MailMessage received = fetchAll(inbox).get(0);
    assertThat(received.header(PublishOptions.ORDERING_KEY)).contains("customer-42");
    assertThat(received.header(PublishOptions.DEDUPLICATION_ID)).contains("o-1-v1");
    assertThat(received.header("tenant")).contains("eu");
    assertThat(received.header("Content-Language")).contains("de");
  }

  @Test
  void theTraceContextReachesTheConsumerInItsW3cForm() {
    MailAddress inbox = address("traced");
    String parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    String state = "mailbox=t61rcWkgMzE,tenant@vendor=x";
    provider.post(
        letterTo(inbox)
            .header(TraceHeaders.TRACEPARENT, parent)
            .header(TraceHeaders.TRACESTATE, state)
            .build());

    await("queued", () -> provider.status(inbox).unreadCount() == 1);
    MailMessage received = fetchAll(inbox).get(0);
    assertThat(received.header(TraceHeaders.TRACEPARENT)).contains(parent);
    assertThat(received.header(TraceHeaders.TRACESTATE)).contains(state);
  }

  @Test
  void optionsOverTheirBoundsOrUnderAReservedNameAreRefusedBeforeAnythingIsStored() {
    MailAddress inbox = address("refused-options");
    List<MailMessage.Builder> refused =
        List.of(
            letterTo(inbox).orderingKey(SECRET + "é".repeat(60)), // 129 UTF-8 bytes and more
            letterTo(inbox).deduplicationId(SECRET + "\n"),
            letterTo(inbox).header("note", SECRET + "x".repeat(PublishOptions.MAX_HEADER_BYTES)),
            letterTo(inbox).header("TraceParent", SECRET),
            letterTo(inbox).header(TraceHeaders.TRACEPARENT, "00-" + SECRET),
            letterTo(inbox).header(TraceHeaders.TRACESTATE, SECRET + "=\u0001"),
            letterTo(inbox).header("X-Death", SECRET),
            letterTo(inbox).header("x-first-death-queue", SECRET),
            letterTo(inbox).header("NATS-Msg-Id", SECRET),
            letterTo(inbox).header("x".repeat(PublishOptions.MAX_NAME_CHARS + 1), SECRET),
            tooManyHeaders(inbox));
    for (MailMessage.Builder message : refused) {
      MailMessage built = message.build();
      assertThatThrownBy(() -> provider.post(built))
          .hasMessageStartingWith(ErrorCode.INVALID_MESSAGE.code())
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain(SECRET));
      assertThatThrownBy(() -> provider.postAll(List.of(letterTo(inbox).build(), built)))
          .as("one refused post refuses the batch before any is stored")
          .hasMessageStartingWith(ErrorCode.INVALID_MESSAGE.code());
    }

    assertThat(provider.status(inbox).unreadCount()).isZero();
    assertThat(fetchAll(inbox)).isEmpty();
  }

  /**
   * What the publish-bound case needs from a provider that talks to a broker or a store: a started
   * provider whose publish bound is short (a second or two), and a way to make what it talks to
   * stop answering (a broker paused with SIGSTOP, a memory alarm, a table lock) and answer again.
   */
  public interface Unanswering extends AutoCloseable {
    /** A started provider with a short publish bound, posting to the broker to be frozen. */
    MailboxProvider provider();

    /** The provider's publish bound. */
    Duration bound();

    /** Makes the broker or store stop answering, with every connection left open. */
    void stopAnswering() throws Exception;

    /** Undoes {@link #stopAnswering}. */
    void answerAgain() throws Exception;

    /** One step of a fixture: freezing, thawing, cleaning up. */
    interface Step {
      void run() throws Exception;
    }

    /**
     * A fixture from its parts. {@code close} runs after the provider was stopped (deleting a
     * private server, forgetting queues).
     */
    static Unanswering of(
        MailboxProvider provider, Duration bound, Step stop, Step answerAgain, Step close) {
      return new Unanswering() {
        @Override
        public MailboxProvider provider() {
          return provider;
        }

        @Override
        public Duration bound() {
          return bound;
        }

        @Override
        public void stopAnswering() throws Exception {
          stop.run();
        }

        @Override
        public void answerAgain() throws Exception {
          answerAgain.run();
        }

        @Override
        public void close() throws Exception {
          try {
            provider.stop(true);
          } finally {
            close.run();
          }
        }
      };
    }
  }

  /**
   * The provider for the publish-bound case, or empty where nothing can stop answering: an
   * in-process provider ({@code mem:}, {@code file:}, {@code jdbc:} on embedded H2). The case is
   * then skipped.
   */
  protected Optional<Unanswering> unanswering() throws Exception {
    return Optional.empty();
  }

  /** The provider's {@link #unanswering()} fixture; the calling case is skipped without one. */
  protected final Unanswering unansweringOrSkip() throws Exception {
    Optional<Unanswering> fixture = unanswering();
    assumeTrue(
        fixture.isPresent(),
        provider.scheme() + ": its fixture has nothing that can stop answering (unanswering())");
    return fixture.get();
  }

  @Test
  void aPostItsBrokerDoesNotConfirmFailsWithinThePublishBoundAndSaysItMayStillArrive()
      throws Exception {
    try (Unanswering unanswering = unansweringOrSkip()) {
      MailboxProvider bounded = unanswering.provider();
      MailAddress inbox = address("bound");
      bounded.post(letterTo(inbox).id("before").build()); // the address exists, the link is up
      long boundMillis = unanswering.bound().toMillis();
      unanswering.stopAnswering();
      long took;
      try {
        long started = System.nanoTime();
        assertThatThrownBy(() -> bounded.post(letterTo(inbox).id("held").build()))
            .hasMessageStartingWith(ErrorCode.PUBLISH_TIMEOUT.code())
            .hasMessageContaining(inbox.toString())
            .hasMessageContaining(boundMillis + " ms")
            .hasMessageContaining("may still arrive")
            .satisfies(
                e ->
                    assertThat(((MailboxException) e).isRetriable())
                        .as("a timeout is worth trying again")
                        .isTrue());
        took = (System.nanoTime() - started) / 1_000_000;
        assertThat(
                bounded.traffic().stream()
                    .filter(counted -> counted.address().equals(inbox.toString()))
                    .mapToLong(AddressTraffic::publishFailures)
                    .sum())
            .as("the timed-out post is counted as a publish failure")
            .isOne();
      } finally {
        unanswering.answerAgain();
      }
      assertThat(took)
          .as("the post failed after the bound (%d ms), not long after it", boundMillis)
          .isBetween(boundMillis * 9 / 10, boundMillis + 5_000);
      Eventually.await(
          "posts work again once the broker answers",
          Duration.ofSeconds(60),
          () -> {
            try {
              bounded.post(letterTo(inbox).id("after").build());
              return true;
            } catch (MailboxException stillDown) {
              return false;
            }
          });
    }
  }

  /** What the outbox relay counts on to send several rows of one ordering key in one call. */
  @Test
  void anOrderedBatchIsStoredInTheOrderGiven() {
    assumeCapability(Capabilities.ORDERED_BATCH);
    MailAddress inbox = address("ordered-batch");
    MailAddress elsewhere = address("ordered-batch-elsewhere");
    List<MailMessage> batch = new java.util.ArrayList<>();
    for (int i = 0; i < 40; i++) {
      batch.add(letter(i % 4 == 3 ? elsewhere : inbox, "o-" + i));
    }
    provider.postAll(batch);
    await("queued", () -> provider.status(inbox).unreadCount() == 30);

    assertThat(fetchAll(inbox))
        .extracting(MailMessage::id)
        .containsExactlyElementsOf(
            batch.stream().filter(m -> m.to().equals(inbox)).map(MailMessage::id).toList());
  }

  @Test
  void everyPostHandOutAndSettlementIsCountedPerAddress() {
    MailAddress inbox = address("traffic");
    MailAddress elsewhere = address("traffic-elsewhere");
    provider.post(letter(inbox, "t-1"));
    provider.postAll(List.of(letter(inbox, "t-2"), letter(inbox, "t-3"), letter(elsewhere, "e")));
    await("queued", () -> provider.status(inbox).unreadCount() == 3);

    assertThat(fetchAll(inbox)).hasSize(3);

    AddressTraffic counted = traffic(inbox);
    assertThat(counted.scheme()).isEqualTo(provider.scheme());
    assertThat(counted.posted()).isEqualTo(3);
    assertThat(counted.publishFailures()).isZero();
    assertThat(counted.publishNanos()).as("the time spent posting").isPositive();
    assertThat(counted.delivered()).isEqualTo(3);
    assertThat(counted.acknowledged()).as("taken without a lease: settled at once").isEqualTo(3);
    assertThat(traffic(elsewhere).posted()).as("each address its own counters").isEqualTo(1);
    assertThat(traffic(elsewhere).delivered()).isZero();
  }

  @Test
  void aRequeueCountsAsARetryAndAGiveUpWithoutADeadLetterQueueAsDropped() {
    assumeTrue(
        provider.supports(Capabilities.LEASE),
        provider.scheme() + ": does not declare " + Capabilities.LEASE);
    MailAddress inbox = address("traffic-settled");
    provider.post(letter(inbox, "r"));
    await("queued", () -> provider.status(inbox).unreadCount() == 1);

    assertThat(provider.fetch(inbox, FetchOptions.leased()).get(0).settle(Disposition.UNHANDLED))
        .isTrue();
    await("back in the queue", () -> provider.status(inbox).unreadCount() == 1);
    assertThat(provider.fetch(inbox, FetchOptions.leased()).get(0).settle(Disposition.DISCARD))
        .isTrue();

    AddressTraffic counted = traffic(inbox);
    assertThat(counted.delivered()).isEqualTo(2);
    assertThat(counted.retried()).isEqualTo(1);
    assertThat(counted.acknowledged()).isZero();
    assertThat(counted.dropped()).as("no dead-letter queue in the kit: given up, dropped").isOne();
    assertThat(counted.deadLettered() + counted.parked()).isZero();
  }

  /** The counters of {@code address}; all zero when it has none yet. */
  private AddressTraffic traffic(MailAddress address) {
    return provider.traffic().stream()
        .filter(counted -> counted.address().equals(address.toString()))
        .findFirst()
        .orElse(
            new AddressTraffic(address.toString(), provider.scheme(), 0, 0, 0, 0, 0, 0, 0, 0, 0));
  }

  private static MailMessage.Builder letterTo(MailAddress inbox) {
    return MailMessage.to(inbox).body("{}");
  }

  private static MailMessage.Builder tooManyHeaders(MailAddress inbox) {
    MailMessage.Builder message = letterTo(inbox);
    for (int i = 0; i <= PublishOptions.MAX_HEADERS; i++) {
      message.header("h-" + i, SECRET);
    }
    return message;
  }
}
