package io.mailbox.connector.provider.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Settings are checked before anything connects, and a password never shows. */
class RedisSettingsTest {

  @Test
  void aPasswordInTheUrlIsMaskedWhereverTheSettingsAreShown() {
    RedisSettings settings = RedisSettings.defaults().withUrl("redis://app:s3cret@cache:6380/2");

    assertThat(settings.toString()).doesNotContain("s3cret").contains("redis://***@cache:6380/2");
    assertThat(settings.shownUrl()).isEqualTo("redis://***@cache:6380/2");
  }

  @Test
  void badValuesAreRefusedWithTheSettingsName() {
    RedisSettings defaults = RedisSettings.defaults();

    assertThatThrownBy(() -> defaults.withUrl("http://cache:6379"))
        .hasMessageContaining("redisUrl");
    assertThatThrownBy(() -> defaults.withUrl("redis://cache")).hasMessageContaining("redisUrl");
    assertThatThrownBy(() -> defaults.withKeyPrefix("a{b}")).hasMessageContaining("redisKeyPrefix");
    assertThatThrownBy(() -> defaults.withLease(Duration.ofMillis(10)))
        .hasMessageContaining("redisLeaseMillis");
    assertThatThrownBy(() -> defaults.withMaxLength(-1)).hasMessageContaining("redisMaxLength");
    assertThatThrownBy(
            () ->
                new RedisSettings(
                    defaults.url(),
                    "mailbox",
                    "mailbox",
                    Duration.ofSeconds(1),
                    Duration.ZERO,
                    Duration.ofSeconds(30),
                    10,
                    0,
                    Duration.ofSeconds(2)))
        .hasMessageContaining("redisBlockMillis");
  }
}
