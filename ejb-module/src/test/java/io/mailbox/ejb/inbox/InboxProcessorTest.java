package io.mailbox.ejb.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.RetriableDeliveryException;
import io.mailbox.ejb.event.IntegrationEventDefinition;
import io.mailbox.ejb.event.IntegrationEventEnvelope;
import jakarta.json.Json;
import jakarta.json.JsonString;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The inbox's decisions with faults injected into its store (in memory, no database). */
class InboxProcessorTest {
  private static final IntegrationEventDefinition<String> HIRED =
      IntegrationEventDefinition.define(
          "people.hired", 1, "people.hired.v1", data -> ((JsonString) data).getString());
  private static final String SOURCE = "jdbc:people@hr/hired";
  private static final String CANONICAL = MailAddress.parse(SOURCE).toString();

  private final InMemoryInboxTransactions store = new InMemoryInboxTransactions();
  private final AtomicInteger handled = new AtomicInteger();

  private InboxProcessor inbox(int maxAttempts) {
    return new InboxProcessor(store, Clock.systemUTC(), maxAttempts);
  }

  private static String envelope(String id) {
    return IntegrationEventEnvelope.of(HIRED, Json.createValue("person-" + id))
        .id(id)
        .build()
        .toJson();
  }

  private void count(String data, IntegrationEventEnvelope envelope) {
    handled.incrementAndGet();
  }

  @Test
  void aContainerThatRefusesTheCallWhileStoppingCountsNoAttemptAndNeverParks() {
    // Payara during a graceful stop: the bean the handler calls answers with the container's own
    // refusal (an EJBException without cause). Found by QuickStartCrashIT's SIGTERM round.
    InboxHandler<String> stopped =
        (data, envelope) -> {
          throw new jakarta.ejb.EJBException("Attempt to invoke when container is in STOPPED");
        };

    for (int restart = 0; restart < 7; restart++) {
      assertThatThrownBy(() -> inbox(5).process("payroll", HIRED, envelope("e-9"), stopped))
          .isInstanceOf(InboxFailureException.class)
          .satisfies(e -> assertThat(io.mailbox.connector.api.HandlerNotReady.is(e)).isTrue());
    }

    assertThat(inbox(5).process("payroll", HIRED, envelope("e-9"), this::count))
        .as("after seven refused calls, not parked: processed")
        .isEqualTo(InboxOutcome.PROCESSED);
    assertThat(handled).hasValue(1);
  }

  @Test
  void whenTheReReadAfterAHandlerFailureFailsTooTheHandlersErrorIsKeptAndItIsRedelivered() {
    InboxHandler<String> failing =
        (data, envelope) -> {
          store.failOnce("find"); // the re-read right after this failure
          throw new IllegalStateException("downstream busy");
        };

    assertThatThrownBy(() -> inbox(5).process("payroll", HIRED, envelope("e-1"), failing))
        .isInstanceOf(InboxFailureException.class)
        .isInstanceOf(RetriableDeliveryException.class)
        .hasRootCauseMessage("downstream busy")
        .satisfies(
            e ->
                assertThat(e.getSuppressed())
                    .singleElement()
                    .satisfies(s -> assertThat(s).hasMessageContaining("injected store fault")));

    assertThat(inbox(5).process("payroll", HIRED, envelope("e-1"), this::count))
        .as("redelivered, it is processed")
        .isEqualTo(InboxOutcome.PROCESSED);
  }

  @Test
  void aStoreFailureWhileCountingTheFailureStillRedelivers() {
    store.failOnce("recordFailure");

    assertThatThrownBy(
            () ->
                inbox(5)
                    .process(
                        "payroll",
                        HIRED,
                        envelope("e-2"),
                        (data, envelope) -> {
                          throw new IllegalStateException("downstream busy");
                        }))
        .isInstanceOf(InboxFailureException.class)
        .hasRootCauseMessage("downstream busy");
  }

  @Test
  void aStoreFailureBeforeTheHandlerRanIsRedeliveredNotDiscardedAndCountsNoAttempt() {
    store.failOnce("runWithMarker");

    // One attempt allowed: were the store's failure counted, this delivery would be parked.
    assertThatThrownBy(() -> inbox(1).process("payroll", HIRED, envelope("e-3"), this::count))
        .isInstanceOf(InboxFailureException.class)
        .hasRootCauseMessage("injected store fault in runWithMarker");
    assertThat(handled).hasValue(0);
    assertThat(inbox(1).process("payroll", HIRED, envelope("e-3"), this::count))
        .as("redelivered, it is processed, not parked")
        .isEqualTo(InboxOutcome.PROCESSED);
  }

  @Test
  void anEnvelopeIdLongerThanTheColumnIsParkedWithACodeAndItsRedeliveriesAreSkipped() {
    String id = "x".repeat(300);
    String event = envelope(id);

    assertThat(inbox(5).process("payroll", HIRED, event, SOURCE, this::count))
        .isEqualTo(InboxOutcome.PARKED);
    assertThat(inbox(5).process("payroll", HIRED, envelope(id), SOURCE, this::count))
        .isEqualTo(InboxOutcome.DUPLICATE);

    assertThat(handled).as("the handler never ran").hasValue(0);
    InboxRow parked = store.get(InboxProcessor.markerId("payroll", HIRED.topic(), id));
    assertThat(parked.status()).isEqualTo(InboxStatus.PARKED);
    assertThat(parked.lastError()).startsWith("MBX-3004 The envelope id has 300 characters");
    assertThat(parked.envelopeId()).hasSizeLessThanOrEqualTo(128).endsWith("...(300 chars)");
    assertThat(parked.envelope()).as("kept whole, full id included").isEqualTo(event);
  }

  @Test
  void theSourceAddressIsRecordedOnProcessedAndParkedMarkers() {
    inbox(1).process("payroll", HIRED, envelope("ok"), SOURCE, this::count);
    inbox(1)
        .process(
            "payroll",
            HIRED,
            envelope("bad"),
            "jdbc:people@hr/hired",
            (data, envelope) -> {
              throw new IllegalStateException("no");
            });

    assertThat(store.get(InboxProcessor.markerId("payroll", HIRED.topic(), "ok")).sourceAddress())
        .isEqualTo(CANONICAL);
    InboxRow parked = store.get(InboxProcessor.markerId("payroll", HIRED.topic(), "bad"));
    assertThat(parked.status()).isEqualTo(InboxStatus.PARKED);
    assertThat(parked.sourceAddress()).isEqualTo(CANONICAL);
  }

  @Test
  void theOldSignatureRecordsNoSource() {
    inbox(1).process("payroll", HIRED, envelope("old"), this::count);

    assertThat(store.get(InboxProcessor.markerId("payroll", HIRED.topic(), "old")).sourceAddress())
        .isNull();
  }
}
