package io.mailbox.connector.provider.mem;

import static io.mailbox.connector.provider.mem.MemoryRig.INBOX;
import static io.mailbox.connector.provider.mem.MemoryRig.INBOX_DLQ;
import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.kernel.DeadLetterPolicy;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** A broadcast settles once every delivery has, one delivery at a time (reference §3). */
class BroadcastSettlementTest {
  private final MemoryRig rig = new MemoryRig();

  @Test
  void whenSomeDeliverySucceededTheMessageStaysHandledAndTheFailureIsDeadLettered() {
    rig.provider.enableDeadLetterQueue(DeadLetterPolicy.defaults());
    rig.provider.subscribe(INBOX, ScriptedSubscriber.succeeding());
    rig.provider.subscribe(INBOX, ScriptedSubscriber.failingRetriably());

    rig.post("a");

    assertThat(rig.unread(INBOX)).as("never requeued after someone handled it").isZero();
    MailMessage record = rig.fetchAll(INBOX_DLQ).get(0);
    assertThat(record.header(SystemHeaders.DEAD_LETTER_REASON)).contains("retriable");
  }

  @Test
  void whenEveryDeliveryFailedRetriablyOneCopyGoesBackToTheHeadOfTheQueue() {
    rig.post("older");
    rig.provider.subscribe(INBOX, ScriptedSubscriber.failingRetriably());
    rig.provider.subscribe(INBOX, ScriptedSubscriber.failingRetriably());
    rig.provider.subscribe(INBOX, ScriptedSubscriber.failingRetriably());

    rig.post("a");

    assertThat(rig.fetchAll(INBOX)).extracting(MailMessage::id).containsExactly("a", "older");
  }

  @Test
  void whenEveryDeliveryFailedFatallyTheMessageIsGivenUp() {
    rig.provider.enableDeadLetterQueue(DeadLetterPolicy.defaults());
    rig.provider.subscribe(INBOX, ScriptedSubscriber.failingFatally());
    rig.provider.subscribe(INBOX, ScriptedSubscriber.failingFatally());

    rig.post("a");

    assertThat(rig.unread(INBOX)).isZero();
    assertThat(rig.fetchAll(INBOX_DLQ))
        .singleElement()
        .satisfies(r -> assertThat(r.header(SystemHeaders.DEAD_LETTER_REASON)).contains("fatal"));
  }

  @Test
  void whenNobodyHandledItAndOneFailureWasRetriableItIsRequeuedNotLost() {
    rig.provider.subscribe(INBOX, ScriptedSubscriber.failingFatally());
    rig.provider.subscribe(INBOX, ScriptedSubscriber.failingRetriably());

    rig.post("a");

    assertThat(rig.unread(INBOX)).isEqualTo(1);
  }

  @Test
  void theBroadcastSettlesOnlyWhenItsSlowestDeliveryHas() {
    CompletableFuture<Void> slow = new CompletableFuture<>();
    rig.provider.subscribe(INBOX, ScriptedSubscriber.failingRetriably());
    rig.provider.subscribe(INBOX, ScriptedSubscriber.hanging(slow));

    rig.post("a");
    assertThat(rig.inFlight(INBOX)).isEqualTo(1);
    assertThat(rig.unread(INBOX)).isZero();

    slow.complete(null);
    assertThat(rig.inFlight(INBOX)).isZero();
    assertThat(rig.unread(INBOX)).as("the slow one handled it").isZero();
  }

  @Test
  void eachDeliveryGetsItsOwnCopyStampedWithAttemptAndRound() {
    ScriptedSubscriber first = ScriptedSubscriber.succeeding();
    ScriptedSubscriber second = ScriptedSubscriber.succeeding();
    rig.provider.subscribe(INBOX, first);
    rig.provider.subscribe(INBOX, second);

    MailMessage posted = rig.post("a");

    MailMessage one = first.attempts.get(0);
    MailMessage two = second.attempts.get(0);
    assertThat(one).isNotSameAs(two);
    assertThat(one.headers())
        .containsEntry(SystemHeaders.ATTEMPT, "1")
        .containsEntry(SystemHeaders.ROUND, "1");
    assertThat(one.sendId()).isEqualTo(posted.sendId());
    assertThat(one.headers()).doesNotContainKey(SystemHeaders.MAX_ATTEMPTS);
  }

  @Test
  void aSubscriberThatThrowsInsteadOfFailingItsStageIsTreatedTheSame() {
    rig.provider.subscribe(
        INBOX,
        m -> {
          throw new io.mailbox.connector.api.RetriableDeliveryException("thrown");
        });

    rig.post("a");

    assertThat(rig.unread(INBOX)).isEqualTo(1);
  }
}
