package io.mailbox.ejb.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.ejb.testsupport.MapConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The outbox's configuration keys are checked when the configuration is read (the relay service
 * reads it at application start) and refused with MBX-1008 and their name when out of range, never
 * clamped (a retention of 0 was read as 1 hour) or left to a converter's own exception.
 */
class OutboxConfigTest {
  private static OutboxConfig config(Map<String, String> values) {
    return new OutboxConfig(new MapConfig(values));
  }

  @ParameterizedTest
  @CsvSource({
    "mailbox.outbox.relay.interval-ms, -5",
    "mailbox.outbox.relay.interval-ms, 0",
    "mailbox.outbox.relay.interval-ms, soon",
    "mailbox.outbox.relay.max-attempts, -1",
    "mailbox.outbox.relay.max-attempts, 4294967306",
    "mailbox.outbox.retain-sent-hours, -1",
    "mailbox.outbox.retain-sent-hours, 9223372036854775807",
    "mailbox.inbox.retain-hours, 0",
    "mailbox.inbox.retain-hours, 1.5"
  })
  void aValueOutOfRangeIsRefusedWithTheKeyNamed(String key, String value) {
    assertThatThrownBy(() -> config(Map.of(key, value)))
        .isInstanceOfSatisfying(
            MailboxException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_POLICY))
        .hasMessageStartingWith("MBX-1008 " + key);
  }

  @Test
  void unsetKeysGiveTheDocumentedDefaults() {
    OutboxConfig config = config(Map.of());

    assertThat(config.relayInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(config.relaySettings().maxAttempts()).isEqualTo(10);
    assertThat(config.relaySettings().retainSent()).isEqualTo(Duration.ofHours(168));
    assertThat(config.inboxRetention()).isEqualTo(Duration.ofHours(168));
  }

  @Test
  void valuesInRangeAreRead() {
    OutboxConfig config =
        config(
            Map.of(
                "mailbox.outbox.relay.interval-ms", "250",
                "mailbox.outbox.relay.max-attempts", "3",
                "mailbox.outbox.retain-sent-hours", "0",
                "mailbox.inbox.retain-hours", " 24 "));

    assertThat(config.relayInterval()).isEqualTo(Duration.ofMillis(250));
    assertThat(config.relaySettings().maxAttempts()).isEqualTo(3);
    assertThat(config.relaySettings().retainSent()).isZero();
    assertThat(config.inboxRetention()).isEqualTo(Duration.ofHours(24));
  }
}
