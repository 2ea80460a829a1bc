package io.mailbox.ejb.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.ejb.event.IntegrationEventDefinition;
import io.mailbox.ejb.event.IntegrationEventEnvelope;
import jakarta.json.JsonValue;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/**
 * Issue 20, item 10: marker ids of different (consumer, topic, id) triples never collide, and a
 * negative max-attempts is refused instead of parking every failure.
 */
class InboxMarkerIdTest {
  private static final IntegrationEventDefinition<JsonValue> HIRED =
      IntegrationEventDefinition.define("people.hired", 1, "people.hired.v1", d -> d);

  @Test
  void triplesThatDifferOnlyInWhereALineBreakFallsHaveDifferentIds() {
    // Both were hashed as "a\nb\nc" when the fields were joined with '\n'.
    assertThat(InboxProcessor.markerId("a\nb", "c", "d"))
        .isNotEqualTo(InboxProcessor.markerId("a", "b\nc", "d"));
    assertThat(InboxProcessor.markerId("a", "b", "c\nd"))
        .isNotEqualTo(InboxProcessor.markerId("a", "b\nc", "d"));
    assertThat(InboxProcessor.markerId("", "a", "b"))
        .isNotEqualTo(InboxProcessor.markerId("a", "", "b"));
  }

  @Test
  void lonelySurrogatesThatUtf8WouldReplaceAlikeStillHaveDifferentIds() {
    assertThat(InboxProcessor.markerId("c", "t", "x\ud800"))
        .isNotEqualTo(InboxProcessor.markerId("c", "t", "x\ud801"));
  }

  @Test
  void anIdIsSixtyFourHexDigitsAndStable() {
    assertThat(InboxProcessor.markerId("payroll", "people.hired.v1", "e-1"))
        .matches("[0-9a-f]{64}")
        .isEqualTo(InboxProcessor.markerId("payroll", "people.hired.v1", "e-1"));
  }

  @Test
  void aDeliveryWhoseTripleOnlyLookedLikeAnotherIsProcessedNotTakenForADuplicate() {
    InMemoryInboxTransactions store = new InMemoryInboxTransactions();
    InboxProcessor inbox = new InboxProcessor(store, Clock.systemUTC(), 3);
    String topic = HIRED.topic();

    InboxOutcome first =
        inbox.process("a", HIRED, envelope("b\n" + topic + "\nz"), (data, event) -> {});
    InboxOutcome second =
        inbox.process("a\n" + topic + "\nb", HIRED, envelope("z"), (data, event) -> {});

    assertThat(first).isEqualTo(InboxOutcome.PROCESSED);
    assertThat(second).isEqualTo(InboxOutcome.PROCESSED);
  }

  @Test
  void aNegativeMaxAttemptsIsRefusedWithMbx1008() {
    assertThatThrownBy(
            () -> new InboxProcessor(new InMemoryInboxTransactions(), Clock.systemUTC(), -1))
        .isInstanceOfSatisfying(
            MailboxException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_POLICY))
        .hasMessageStartingWith("MBX-1008")
        .hasMessageContaining("mailbox.inbox.max-attempts");
  }

  @Test
  void zeroMaxAttemptsStillLeavesFailuresToTheTransport() {
    InboxProcessor inbox =
        new InboxProcessor(new InMemoryInboxTransactions(), Clock.systemUTC(), 0);

    assertThatThrownBy(
            () ->
                inbox.process(
                    "payroll",
                    HIRED,
                    envelope("e-1"),
                    (data, event) -> {
                      throw new IllegalStateException("busy");
                    }))
        .isInstanceOf(InboxFailureException.class);
  }

  private static String envelope(String id) {
    return IntegrationEventEnvelope.of(HIRED, JsonValue.NULL).id(id).build().toJson();
  }
}
