package io.mailbox.connector.provider.amqp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.MailboxException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class AmqpSettingsTest {
  @Test
  void theBrokerPasswordNeverAppearsInTheSettingsText() {
    AmqpSettings settings =
        new AmqpSettings(
            "amqp://shop:s3cret-broker-pass@rabbit.internal:5672/%2F",
            32, Duration.ofSeconds(15), List.of(1000L), 10, Duration.ofSeconds(2));

    assertThat(settings.toString())
        .doesNotContain("s3cret-broker-pass")
        .doesNotContain("shop:")
        .contains("amqp://***@rabbit.internal:5672/%2F");
    assertThat(AmqpSettings.uriForDisplay("amqps://u:p@h/v")).isEqualTo("amqps://***@h/v");
    assertThat(AmqpSettings.uriForDisplay("amqp://h:5672/v")).isEqualTo("amqp://h:5672/v");
  }

  @Test
  void aUriWithoutAHostIsRefusedWithACodeAndWithoutEchoingIt() {
    for (String hostless : List.of("amqp:xyz", "amqp:///%2F", "amqps://user:pw@/vhost")) {
      assertThatThrownBy(
              () ->
                  new AmqpSettings(
                      hostless,
                      32,
                      Duration.ofSeconds(15),
                      List.of(1000L),
                      10,
                      Duration.ofSeconds(2)))
          .as(hostless)
          .isInstanceOf(MailboxException.class)
          .hasMessageContaining("host")
          .hasMessageNotContaining("pw");
    }
  }
}
