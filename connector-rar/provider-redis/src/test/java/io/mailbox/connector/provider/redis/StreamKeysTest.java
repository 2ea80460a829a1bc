package io.mailbox.connector.provider.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.kernel.DeadLetterPolicy;
import org.junit.jupiter.api.Test;

/** Addresses to stream keys and back: injective, dead letters beside their source. */
class StreamKeysTest {
  private final DeadLetterPolicy policy = new DeadLetterPolicy("_dlq", 2);
  private final StreamKeys keys =
      new StreamKeys(
          "mailbox",
          "billing",
          policy::sourceOf,
          a -> java.util.Optional.of(policy.deadLetterTopic(a)));
  private final MailAddress placed = MailAddress.parse("redis://orders@shop/placed");

  @Test
  void anAddressIsItsMailboxInBracesAfterThePrefix() {
    assertThat(keys.stream(placed)).isEqualTo("mailbox:{orders@shop/placed}");
    assertThat(keys.parked(placed)).isEqualTo("mailbox:{orders@shop/placed}.parked");
    assertThat(keys.address("mailbox:{orders@shop/placed}")).contains(placed);
  }

  @Test
  void aDeadLetterTopicIsTheDeadLetterStreamOfItsSourcesGroup() {
    MailAddress dead = policy.deadLetterTopic(placed);
    MailAddress deeper = policy.deadLetterTopic(dead);

    assertThat(keys.stream(dead)).isEqualTo("mailbox:{orders@shop/placed}.dead.billing");
    assertThat(keys.stream(deeper))
        .isEqualTo("mailbox:{orders@shop/placed}.dead.billing.dead.billing");
    assertThat(keys.address(keys.stream(dead))).contains(dead);
    assertThat(keys.address(keys.stream(deeper))).contains(deeper);
  }

  @Test
  void anAddressWhosePathLooksLikeADeadLetterStreamCannotCollideWithOne() {
    MailAddress lookalike = MailAddress.parse("redis://orders@shop/placed.dead.billing");

    assertThat(keys.stream(lookalike)).isEqualTo("mailbox:{orders@shop/placed.dead.billing}");
    assertThat(keys.stream(lookalike)).isNotEqualTo(keys.stream(policy.deadLetterTopic(placed)));
  }

  @Test
  void parkedStreamsOtherGroupsAndForeignKeysAreNotAddresses() {
    assertThat(keys.address("mailbox:{orders@shop/placed}.parked")).isEmpty();
    assertThat(keys.address("mailbox:{orders@shop/placed}.dead.shipping")).isEmpty();
    assertThat(keys.address("other:{orders@shop/placed}")).isEmpty();
    assertThat(keys.address("mailbox:orders")).isEmpty();
  }
}
