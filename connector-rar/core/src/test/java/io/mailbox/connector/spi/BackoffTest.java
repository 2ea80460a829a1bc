package io.mailbox.connector.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {
  private static final Duration SECOND = Duration.ofSeconds(1);
  private static final Duration MINUTE = Duration.ofMinutes(1);

  @Test
  void doublesFromTheFirstWaitUpToTheCap() {
    assertThat(Backoff.after(1, SECOND, MINUTE)).isEqualTo(SECOND);
    assertThat(Backoff.after(2, SECOND, MINUTE)).isEqualTo(Duration.ofSeconds(2));
    assertThat(Backoff.after(6, SECOND, MINUTE)).isEqualTo(Duration.ofSeconds(32));
    assertThat(Backoff.after(7, SECOND, MINUTE)).isEqualTo(MINUTE);
    assertThat(Backoff.after(Integer.MAX_VALUE, SECOND, MINUTE)).isEqualTo(MINUTE);
  }

  @Test
  void neverOverflowsAndNeverGoesBelowTheFirstWait() {
    Duration huge = Duration.ofMillis(Long.MAX_VALUE / 3);
    assertThat(Backoff.after(63, huge, Duration.ofMillis(Long.MAX_VALUE)))
        .isEqualTo(Duration.ofMillis(Long.MAX_VALUE));
    assertThat(Backoff.after(0, SECOND, MINUTE)).isEqualTo(SECOND);
    assertThat(Backoff.after(-5, SECOND, MINUTE)).isEqualTo(SECOND);
    assertThat(Backoff.after(3, Duration.ZERO, MINUTE)).isEqualTo(Duration.ZERO);
    assertThat(Backoff.after(3, MINUTE, SECOND)).as("a cap below the first wait").isEqualTo(SECOND);
  }
}
