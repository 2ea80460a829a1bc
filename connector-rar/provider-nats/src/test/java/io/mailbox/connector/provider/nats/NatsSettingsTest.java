package io.mailbox.connector.provider.nats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.MailboxException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class NatsSettingsTest {

  @Test
  void aPasswordInTheUrlNeverReachesToStringOrMessages() {
    NatsSettings settings =
        NatsSettings.defaults().withUrl("nats://app:s3cret@broker:4222,nats://broker2:4222");
    assertThat(settings.toString()).doesNotContain("s3cret").contains("nats://***@broker:4222");
    assertThat(settings.shownUrl()).isEqualTo("nats://***@broker:4222,nats://broker2:4222");
  }

  @Test
  void outOfRangeValuesAreRefusedNamingTheSetting() {
    assertThatThrownBy(() -> NatsSettings.defaults().withUrl("http://x:1"))
        .isInstanceOf(MailboxException.class)
        .hasMessageContaining("natsUrl");
    assertThatThrownBy(() -> NatsSettings.defaults().withAckWait(Duration.ofMillis(10)))
        .hasMessageContaining("natsAckWaitMillis");
    assertThatThrownBy(() -> NatsSettings.defaults().withCreatedStream("a.b", "x"))
        .hasMessageContaining("natsStream");
    assertThatThrownBy(() -> NatsSettings.defaults().withCreatedStream("S", "a.b"))
        .hasMessageContaining("natsSubjectPrefix");
  }
}
