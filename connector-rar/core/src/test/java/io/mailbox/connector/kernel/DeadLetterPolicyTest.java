package io.mailbox.connector.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailAddress;
import org.junit.jupiter.api.Test;

/** A dead-letter topic names its source, one level up, so a transport can store it beside it. */
class DeadLetterPolicyTest {
  private final DeadLetterPolicy policy = new DeadLetterPolicy("_dlq", 3);

  @Test
  void theSourceOfADeadLetterTopicIsOneLevelUpAndAPlainAddressHasNone() {
    MailAddress work = MailAddress.parse("redis://jobs@shop/work");
    MailAddress dead = policy.deadLetterTopic(work);
    MailAddress deeper = policy.deadLetterTopic(dead);

    assertThat(dead).hasToString("redis://jobs@shop/work_dlq");
    assertThat(policy.sourceOf(dead)).contains(work);
    assertThat(policy.sourceOf(deeper)).contains(dead);
    assertThat(policy.sourceOf(work)).isEmpty();
  }

  @Test
  void anAddressWithoutAPathRoundTripsToo() {
    MailAddress bare = MailAddress.parse("redis://jobs@shop");

    MailAddress dead = policy.deadLetterTopic(bare);

    assertThat(policy.sourceOf(dead)).contains(bare);
  }
}
