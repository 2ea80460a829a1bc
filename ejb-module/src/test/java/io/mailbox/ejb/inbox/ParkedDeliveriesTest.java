package io.mailbox.ejb.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.ejb.event.IntegrationEventDefinition;
import io.mailbox.ejb.event.IntegrationEventEnvelope;
import jakarta.json.Json;
import jakarta.json.JsonString;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An operator's release of parked deliveries: re-posted where they came from, or refused. */
class ParkedDeliveriesTest {
  private static final IntegrationEventDefinition<String> HIRED =
      IntegrationEventDefinition.define(
          "people.hired", 1, "people.hired.v1", data -> ((JsonString) data).getString());
  private static final String SOURCE = "jdbc:people@hr/hired";
  private static final String CANONICAL = MailAddress.parse(SOURCE).toString();
  private static final InboxHandler<String> FAILING =
      (data, envelope) -> {
        throw new IllegalStateException("no");
      };

  private final InMemoryInboxTransactions store = new InMemoryInboxTransactions();
  private final InboxProcessor inbox = new InboxProcessor(store, Clock.systemUTC(), 1);
  private final List<MailMessage> posted = new ArrayList<>();
  private final ParkedDeliveries parked =
      new ParkedDeliveries(store, posted::add, Clock.systemUTC());

  private static String envelope(String id) {
    return IntegrationEventEnvelope.of(HIRED, Json.createValue("person-" + id))
        .id(id)
        .build()
        .toJson();
  }

  private static String marker(String id) {
    return InboxProcessor.markerId("payroll", HIRED.topic(), id);
  }

  @Test
  void retryRepostsToTheAddressTheDeliveryCameFromAndDeletesTheMarker() {
    String event = envelope("e-1");
    inbox.process("payroll", HIRED, event, SOURCE, FAILING);

    ParkedDeliveries.Outcome outcome = parked.release(marker("e-1"), true);

    assertThat(outcome.released()).isTrue();
    assertThat(posted)
        .singleElement()
        .satisfies(
            message -> {
              assertThat(message.to().toString()).isEqualTo(CANONICAL);
              assertThat(message.body()).isEqualTo(event);
            });
    assertThat(store.get(marker("e-1"))).isNull();
    assertThat(inbox.process("payroll", HIRED, envelope("e-1"), SOURCE, (d, e) -> {}))
        .as("the re-posted copy is processed")
        .isEqualTo(InboxOutcome.PROCESSED);
  }

  @Test
  void retryWithoutARecordedSourceIsRefusedWithACodeAndPostsNothing() {
    inbox.process("payroll", HIRED, envelope("e-2"), FAILING);

    ParkedDeliveries.Outcome outcome = parked.release(marker("e-2"), true);

    assertThat(outcome.released()).isFalse();
    assertThat(outcome.reason()).startsWith("MBX-3005");
    assertThat(posted).as("never re-posted to a guessed address").isEmpty();
    assertThat(store.get(marker("e-2")).status()).isEqualTo(InboxStatus.PARKED);
  }

  @Test
  void retryOfARowWithoutAStoredEnvelopeIsRefusedAndTheRowKept() {
    store.put(
        new InboxRow(
            marker("big"),
            "payroll",
            HIRED.topic(),
            "big",
            InboxStatus.PARKED,
            5,
            0,
            "too big to keep",
            null,
            SOURCE));

    ParkedDeliveries.Outcome outcome = parked.release(marker("big"), true);

    assertThat(outcome.released()).isFalse();
    assertThat(outcome.reason()).startsWith("MBX-3006");
    assertThat(store.get(marker("big")).status())
        .as("not deleted behind a 'not released'")
        .isEqualTo(InboxStatus.PARKED);
    assertThat(parked.release(marker("big"), false).released()).as("discard still works").isTrue();
    assertThat(store.get(marker("big")).status()).isEqualTo(InboxStatus.DISCARDED);
  }

  @Test
  void aRepostTheProviderRefusesLeavesTheDeliveryParked() {
    String event = envelope("e-3");
    inbox.process("payroll", HIRED, event, SOURCE, FAILING);
    ParkedDeliveries refusing =
        new ParkedDeliveries(
            store,
            message -> {
              throw new IllegalStateException("broker down");
            },
            Clock.systemUTC());

    ParkedDeliveries.Outcome outcome = refusing.release(marker("e-3"), true);

    assertThat(outcome.released()).isFalse();
    assertThat(outcome.reason()).contains("broker down").endsWith("it stays parked.");
    InboxRow row = store.get(marker("e-3"));
    assertThat(row.status()).isEqualTo(InboxStatus.PARKED);
    assertThat(row.envelope()).isEqualTo(event);
    assertThat(row.sourceAddress()).isEqualTo(CANONICAL);
  }

  @Test
  void aRowNoLongerParkedIsReportedAsSuchAndNothingChanges() {
    ParkedDeliveries.Outcome outcome = parked.release(marker("gone"), true);

    assertThat(outcome.released()).isFalse();
    assertThat(outcome.reason()).startsWith("not parked");
    assertThat(posted).isEmpty();
  }
}
