package io.mailbox.connector.provider.amqp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.MailAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How addresses become RabbitMQ queue names, and which cannot. */
class QueueNamesTest {
  private final QueueNames names = new QueueNames(List.of(1_000L, 5_000L, 30_000L));

  @Test
  void aQueueIsNamedByItsMailboxAndItsHelpersBySuffix() {
    String queue = names.queue(MailAddress.parse("amqp:orders@shop/placed"));

    assertThat(queue).isEqualTo("orders@shop/placed");
    assertThat(QueueNames.retry(queue, 5_000)).isEqualTo("orders@shop/placed.retry.5000ms");
    assertThat(QueueNames.parked(queue)).isEqualTo("orders@shop/placed.parked");
  }

  @Test
  void theLongestHelperNameMustFitIn255BytesOfUtf8() {
    // "it@rabbit/" is 10 bytes; ".retry.30000ms" adds 14: a 231-byte path is the longest that fits.
    MailAddress fits = MailAddress.parse("amqp://it@rabbit/" + "p".repeat(231));
    MailAddress tooLong = MailAddress.parse("amqp://it@rabbit/" + "p".repeat(232));

    assertThat(names.queue(fits)).hasSize(241);
    assertThatThrownBy(() -> names.queue(tooLong))
        .hasMessageStartingWith("MBX-1001")
        .hasMessageContaining("256 bytes");
  }

  @Test
  void withoutRetryDelaysTheParkedQueueIsTheLongestName() {
    QueueNames noDelays = new QueueNames(List.of());
    // ".parked" adds 7 bytes: a 238-byte path is the longest that fits.
    assertThat(noDelays.queue(MailAddress.parse("amqp://it@rabbit/" + "p".repeat(238))))
        .isNotNull();
    assertThatThrownBy(
            () -> noDelays.queue(MailAddress.parse("amqp://it@rabbit/" + "p".repeat(239))))
        .hasMessageContaining("256 bytes");
  }

  @Test
  void namesRabbitMqReservesAreRefused() {
    assertThatThrownBy(() -> names.queue(MailAddress.parse("amqp:amq.gen@x/y")))
        .hasMessageStartingWith("MBX-1001")
        .hasMessageContaining("amq.");
  }

  @Test
  void theRetryDelayFollowsTheRoundAndTheLastTierRepeats() {
    assertThat(names.delayForRound(1)).isEqualTo(1_000);
    assertThat(names.delayForRound(2)).isEqualTo(5_000);
    assertThat(names.delayForRound(3)).isEqualTo(30_000);
    assertThat(names.delayForRound(9)).isEqualTo(30_000);
    assertThat(names.delayForRound(0)).isEqualTo(1_000);
  }
}
