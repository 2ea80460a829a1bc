package io.mailbox.console.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SignInThrottleTest {
  private final SignInThrottle throttle = new SignInThrottle();
  private Instant now = Instant.parse("2026-12-01T10:00:00Z");

  private void refuse(String account, String address, int times) {
    for (int i = 0; i < times; i++) {
      throttle.refused(account, address, now);
    }
  }

  @Test
  void theFirstFewRefusalsCostNoDelay() {
    refuse("ops", "203.0.113.7", SignInThrottle.FREE_FAILURES);

    assertThat(throttle.waitBefore("ops", "203.0.113.7", now)).isEmpty();
  }

  @Test
  void eachFurtherRefusalDoublesTheWaitUpToItsCap() {
    assertThat(SignInThrottle.delayAfter(4)).isEqualTo(Duration.ofSeconds(1));
    assertThat(SignInThrottle.delayAfter(5)).isEqualTo(Duration.ofSeconds(2));
    assertThat(SignInThrottle.delayAfter(6)).isEqualTo(Duration.ofSeconds(4));
    assertThat(SignInThrottle.delayAfter(9)).isEqualTo(Duration.ofSeconds(30));

    refuse("ops", "203.0.113.7", 5);

    assertThat(throttle.waitBefore("ops", "203.0.113.7", now)).contains(Duration.ofSeconds(2));
    assertThat(throttle.waitBefore("ops", "203.0.113.7", now.plusSeconds(2))).isEmpty();
  }

  @Test
  void theTenthRefusalLocksTheAccountOutFromEveryAddressForAQuarterOfAnHour() {
    for (int i = 0; i < SignInThrottle.LOCKOUT_FAILURES; i++) {
      throttle.refused("ops", "198.51.100." + i, now);
    }

    assertThat(throttle.waitBefore("ops", "192.0.2.1", now)).contains(Duration.ofMinutes(15));
    assertThat(throttle.waitBefore("ops", "192.0.2.1", now.plus(Duration.ofMinutes(15)))).isEmpty();
    assertThat(throttle.waitBefore("auditor", "192.0.2.1", now)).isEmpty();
  }

  @Test
  void theTenthRefusalFromOneAddressLocksThatAddressOutForEveryAccount() {
    for (int i = 0; i < SignInThrottle.LOCKOUT_FAILURES; i++) {
      throttle.refused("guess-" + i, "203.0.113.7", now);
    }

    assertThat(throttle.waitBefore("ops", "203.0.113.7", now)).contains(Duration.ofMinutes(15));
    assertThat(throttle.waitBefore("ops", "192.0.2.1", now)).isEmpty();
  }

  @Test
  void aSuccessfulSignInForgetsTheRefusalsOfTheAccountAndTheAddress() {
    refuse("ops", "203.0.113.7", 6);

    throttle.succeeded("ops", "203.0.113.7");

    assertThat(throttle.waitBefore("ops", "203.0.113.7", now)).isEmpty();
    refuse("ops", "203.0.113.7", SignInThrottle.FREE_FAILURES);
    assertThat(throttle.waitBefore("ops", "203.0.113.7", now)).isEmpty();
  }

  @Test
  void refusalsOlderThanTheLockoutAreForgotten() {
    refuse("ops", "203.0.113.7", 9);
    now = now.plus(Duration.ofMinutes(16));

    throttle.refused("ops", "203.0.113.7", now);

    assertThat(throttle.waitBefore("ops", "203.0.113.7", now)).isEmpty();
  }
}
