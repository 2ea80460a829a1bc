package io.mailbox.connector.provider.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.spi.ProviderSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The factory reads {@code providerSettings} into {@link KafkaSettings}, refusing what is off. */
class KafkaProviderFactoryTest {
  private final KafkaProviderFactory factory = new KafkaProviderFactory();

  @Test
  void unsetSettingsTakeTheDeclaredDefaults() {
    KafkaSettings settings = factory.configure(new ProviderSettings(Map.<String, String>of()::get));

    assertThat(settings).isEqualTo(KafkaSettings.defaults());
    assertThat(settings.queueBatch()).isEqualTo(500);
  }

  @Test
  void theQueueBatchIsReadAndBounded() {
    assertThat(configure("kafkaQueueBatch", "1").queueBatch()).isEqualTo(1);
    assertThat(configure("kafkaQueueBatch", " 4000 ").queueBatch()).isEqualTo(4_000);
    for (String wrong : new String[] {"0", "-5", "4001", "2147483648", "many", ""}) {
      assertThatThrownBy(() -> configure("kafkaQueueBatch", wrong))
          .as(wrong)
          .hasMessageStartingWith("MBX-1008")
          .hasMessageContaining("kafkaQueueBatch");
    }
    for (String secretLooking : new String[] {"-5", "4001", "2147483648", "many"}) {
      assertThatThrownBy(() -> configure("kafkaQueueBatch", secretLooking))
          .as("the value is never echoed")
          .hasMessageNotContaining(secretLooking);
    }
    assertThatThrownBy(() -> configure("kafkaQueueBatch", "4001"))
        .hasMessageContaining("must be 1 to 4000");
  }

  private KafkaSettings configure(String property, String value) {
    return factory.configure(new ProviderSettings(Map.of(property, value)::get));
  }
}
