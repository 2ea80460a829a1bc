package io.mailbox.connector.provider.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxException;
import org.junit.jupiter.api.Test;

class QueueAddressesTest {

  private static MailAddress address(String text) {
    return MailAddress.parse(text);
  }

  @Test
  void noPatternsMeansEveryAddressIsOrdered() {
    assertThat(QueueAddresses.parse("").isQueue(address("kafka:orders@shop/in"))).isFalse();
    assertThat(QueueAddresses.parse(null).isQueue(address("kafka:orders@shop/in"))).isFalse();
  }

  @Test
  void aStarAloneMakesEveryAddressAQueue() {
    assertThat(QueueAddresses.parse("*").isQueue(address("kafka:a@b"))).isTrue();
  }

  @Test
  void patternsMatchTheMailboxWithStarsForAnyRun() {
    QueueAddresses queues = QueueAddresses.parse(" jobs@shop/* , *@batch ");
    assertThat(queues.isQueue(address("kafka:jobs@shop/invoices"))).isTrue();
    assertThat(queues.isQueue(address("kafka://jobs@shop/a/b"))).isTrue();
    assertThat(queues.isQueue(address("kafka:reports@batch"))).isTrue();
    assertThat(queues.isQueue(address("kafka:jobs@shop"))).as("no path, no match").isFalse();
    assertThat(queues.isQueue(address("kafka:orders@shop/in"))).isFalse();
  }

  @Test
  void matchingIsLinearOnHostileInput() {
    String pattern = "*a*a*a*a*a*a*a*a*a*b";
    String text = "a".repeat(5_000);
    long started = System.nanoTime();
    assertThat(QueueAddresses.matches(pattern, text)).isFalse();
    assertThat(System.nanoTime() - started).isLessThan(1_000_000_000L);
  }

  @Test
  void aPatternWithSpacesOrControlCharactersIsRefusedWithTheSettingNamed() {
    assertThatThrownBy(() -> QueueAddresses.parse("jobs@shop/ x"))
        .isInstanceOf(MailboxException.class)
        .hasMessageContaining("kafkaQueueAddresses");
    assertThatThrownBy(() -> QueueAddresses.parse("jobs@shop/\u0000"))
        .isInstanceOf(MailboxException.class);
  }

  @Test
  void aQueueAddressAlwaysHasADeliveryCapBelowTheBrokersLimit() {
    KafkaSettings settings = KafkaSettings.defaults();
    assertThat(settings.withMaxDeliveries(3).queueDeliveryCap()).isEqualTo(3);
    assertThat(settings.withMaxDeliveries(0).queueDeliveryCap()).isEqualTo(7);
    assertThat(settings.withMaxDeliveries(50).queueDeliveryCap()).isEqualTo(7);
    assertThat(settings.withMaxDeliveries(3).shareDeliveryLimit()).isEqualTo(6);
  }
}
