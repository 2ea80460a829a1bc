package io.mailbox.connector.provider.mem;

import static io.mailbox.connector.provider.mem.MemoryRig.INBOX;
import static io.mailbox.connector.provider.mem.MemoryRig.INBOX_DLQ;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.Capabilities;
import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.kernel.DeadLetterPolicy;
import io.mailbox.connector.kernel.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Opt-in dead letters, the capped chain and parking (reference §2, §4). */
class DeadLetterTest {
  private final MemoryRig rig = new MemoryRig();

  private Delivery leaseFrom(MailAddress address) {
    return rig.provider.fetch(address, FetchOptions.leased()).get(0);
  }

  @Test
  void withDeadLettersOffADiscardIsADropAndNoTopicAppears() {
    rig.post("a");

    assertThat(leaseFrom(INBOX).settle(Disposition.DISCARD)).isTrue();

    assertThat(rig.provider.supports(Capabilities.DEAD_LETTER)).isFalse();
    assertThat(rig.provider.deadLetterTopic(INBOX)).isEmpty();
    assertThat(rig.provider.enumerate().orElseThrow())
        .extracting(s -> s.address())
        .containsExactly(INBOX);
  }

  @Test
  void aGivenUpDeliveryIsArchivedWithWhyWhenAndWhence() {
    rig.provider.enableDeadLetterQueue(DeadLetterPolicy.defaults());
    rig.provider.setRetryPolicy(RetryPolicy.of(3, Duration.ofSeconds(1)));
    rig.provider.subscribe(INBOX, ScriptedSubscriber.failingFatally());

    MailMessage posted = rig.post("a");

    MailMessage record = rig.fetchAll(INBOX_DLQ).get(0);
    assertThat(rig.provider.supports(Capabilities.DEAD_LETTER)).isTrue();
    assertThat(record.id()).isEqualTo("a");
    assertThat(record.to()).as("keeps its original address for replay").isEqualTo(INBOX);
    assertThat(record.body()).isEqualTo(posted.body());
    assertThat(record.headers())
        .containsEntry(SystemHeaders.DEAD_LETTER_REASON, "fatal")
        .containsEntry(SystemHeaders.DEAD_LETTER_ATTEMPTS, "1")
        .containsEntry(SystemHeaders.DEAD_LETTER_ROUND, "1")
        .containsEntry(SystemHeaders.DEAD_LETTER_TOPIC, INBOX.toString())
        .containsEntry(SystemHeaders.DEAD_LETTER_DEPTH, "1")
        .containsEntry(
            SystemHeaders.DEAD_LETTER_ERROR, "java.lang.IllegalArgumentException: bad payload");
    assertThat(record.sendId()).as("a record is a new copy").isNotEqualTo(posted.sendId());
  }

  @Test
  void aConsumerNackIsArchivedOnceEvenWhenRepeated() {
    rig.provider.enableDeadLetterQueue(DeadLetterPolicy.defaults());
    rig.post("a");
    Delivery delivery = leaseFrom(INBOX);

    assertThat(delivery.settle(Disposition.DISCARD)).isTrue();
    assertThat(delivery.settle(Disposition.DISCARD)).isFalse();

    assertThat(rig.fetchAll(INBOX_DLQ))
        .singleElement()
        .satisfies(
            r -> assertThat(r.header(SystemHeaders.DEAD_LETTER_REASON)).contains("consumer-nack"));
  }

  @Test
  void aDiscardAfterAnAckDoesNotDeadLetterAMessageThatSucceeded() {
    rig.provider.enableDeadLetterQueue(DeadLetterPolicy.defaults());
    rig.post("a");
    Delivery delivery = leaseFrom(INBOX);

    delivery.ack();
    delivery.settle(Disposition.DISCARD);

    assertThat(rig.provider.status(INBOX_DLQ).exists()).isFalse();
  }

  @Test
  void aRecordGivenUpAgainAtTheCapIsParkedNotChainedForever() {
    rig.provider.enableDeadLetterQueue(DeadLetterPolicy.defaults());
    rig.post("a");
    leaseFrom(INBOX).settle(Disposition.DISCARD);

    assertThat(leaseFrom(INBOX_DLQ).settle(Disposition.DISCARD)).isTrue();

    assertThat(rig.provider.deadLetterTopic(INBOX_DLQ)).contains(INBOX_DLQ);
    assertThat(rig.provider.status(MailAddress.parse("mem:sales@bus/inbox_dlq_dlq")).exists())
        .isFalse();
    assertThat(rig.unread(INBOX_DLQ)).as("a parked record is not unread").isZero();
    assertThat(rig.provider.fetch(INBOX_DLQ, FetchOptions.leased()))
        .as("and never handed out")
        .isEmpty();
    assertThat(rig.extension(INBOX_DLQ, "mem.parkedCount")).isEqualTo(1);
    MailMessage parked = rig.provider.peekParked(INBOX_DLQ, 10).get(0);
    assertThat(parked.headers())
        .containsEntry(SystemHeaders.DEAD_LETTER_TERMINAL, "true")
        .containsEntry(SystemHeaders.DEAD_LETTER_DEPTH, "1");
  }

  @Test
  void parkedRecordsArePurgedOneByKeyOrAll() {
    rig.provider.enableDeadLetterQueue(DeadLetterPolicy.defaults());
    for (String id : new String[] {"a", "b", "c"}) {
      rig.post(id);
      leaseFrom(INBOX).settle(Disposition.DISCARD);
      leaseFrom(INBOX_DLQ).settle(Disposition.DISCARD);
    }
    String firstKey = rig.provider.peekParked(INBOX_DLQ, 10).get(0).sendId().orElseThrow();

    assertThat(rig.provider.purgeParked(INBOX_DLQ, firstKey)).isEqualTo(1);
    assertThat(rig.provider.peekParked(INBOX_DLQ, 10))
        .extracting(MailMessage::id)
        .containsExactly("b", "c");
    assertThat(rig.provider.purgeParked(INBOX_DLQ, null)).isEqualTo(2);
    assertThat(rig.extension(INBOX_DLQ, "mem.parkedCount")).isEqualTo(0);
  }

  @Test
  void aDeeperMaxNestingOpensARealChain() {
    rig.provider.enableDeadLetterQueue(new DeadLetterPolicy("_dlq", 2));
    MailAddress second = MailAddress.parse("mem:sales@bus/inbox_dlq_dlq");
    rig.post("a");
    leaseFrom(INBOX).settle(Disposition.DISCARD);
    leaseFrom(INBOX_DLQ).settle(Disposition.DISCARD);

    assertThat(rig.fetchAll(second))
        .singleElement()
        .satisfies(r -> assertThat(r.header(SystemHeaders.DEAD_LETTER_DEPTH)).contains("2"));
    assertThat(rig.provider.deadLetterTopic(second)).contains(second);
  }

  @Test
  void aSuffixThatCanonicalizationWouldRewriteIsRefused() {
    assertThatThrownBy(() -> new DeadLetterPolicy("_死信", 1)).hasMessageStartingWith("MBX-1008");
    assertThatThrownBy(() -> new DeadLetterPolicy("/dlq", 1)).hasMessageStartingWith("MBX-1008");
    assertThatThrownBy(() -> new DeadLetterPolicy("..", 1)).hasMessageStartingWith("MBX-1008");
    assertThatThrownBy(() -> new DeadLetterPolicy("_dlq", 0)).hasMessageStartingWith("MBX-1008");
    assertThat(new DeadLetterPolicy("_%E6%AD%BB", 1).deadLetterTopic(INBOX).path())
        .isEqualTo("inbox_%E6%AD%BB");
  }

  @Test
  void anAddressWithoutPathGetsItsDeadLetterTopicAsPath() {
    assertThat(DeadLetterPolicy.defaults().deadLetterTopic(MailAddress.parse("mem:a@b")).toString())
        .isEqualTo("mem://a@b/_dlq");
  }

  @Test
  void aSubscriberOnTheDeadLetterTopicReceivesRecordsLikeAnyOtherMail() {
    rig.provider.enableDeadLetterQueue(DeadLetterPolicy.defaults());
    ScriptedSubscriber compensation = ScriptedSubscriber.succeeding();
    rig.provider.subscribe(INBOX_DLQ, compensation);
    rig.provider.subscribe(INBOX, ScriptedSubscriber.failingFatally());

    rig.post("a");

    assertThat(compensation.attempts)
        .singleElement()
        .satisfies(r -> assertThat(r.id()).isEqualTo("a"));
  }

  @Test
  void aCompensationWorkerThatFailsParksTheRecord() {
    rig.provider.enableDeadLetterQueue(DeadLetterPolicy.defaults());
    rig.provider.subscribe(INBOX_DLQ, ScriptedSubscriber.failingFatally());
    rig.provider.subscribe(INBOX, ScriptedSubscriber.failingFatally());

    rig.post("a");

    assertThat(rig.extension(INBOX_DLQ, "mem.parkedCount")).isEqualTo(1);
  }
}
