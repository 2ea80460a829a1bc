package io.mailbox.ejb.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Issue 20, item 10: a negative skew or timeout is refused with MBX-1008, not accepted. */
class RelaySettingsTest {
  private static final RelaySettings D = RelaySettings.defaults();

  private static RelaySettings with(Duration skew, Duration publish, Duration store) {
    return new RelaySettings(
        D.scanLimit(),
        D.publishLimit(),
        D.maxAttempts(),
        D.baseBackoff(),
        D.maxBackoff(),
        D.claimLease(),
        skew,
        publish,
        store,
        D.sweepDeadline(),
        D.maxEnvelopeBytes(),
        D.retainSent());
  }

  private static void assertRefused(Runnable settings, String naming) {
    assertThatThrownBy(settings::run)
        .isInstanceOfSatisfying(
            MailboxException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_POLICY))
        .hasMessageStartingWith("MBX-1008")
        .hasMessageContaining(naming);
  }

  @Test
  void aNegativeClockSkewIsRefused() {
    // Accepted before: it shortened the claim another relay waits for.
    assertRefused(
        () -> with(Duration.ofSeconds(-20), D.publishTimeout(), D.storeTimeout()), "maxClockSkew");
  }

  @ParameterizedTest
  @ValueSource(longs = {-1, 0})
  void aPublishTimeoutThatIsNotPositiveIsRefused(long seconds) {
    assertRefused(
        () -> with(D.maxClockSkew(), Duration.ofSeconds(seconds), D.storeTimeout()),
        "publishTimeout");
  }

  @ParameterizedTest
  @ValueSource(longs = {-1, 0})
  void aStoreTimeoutThatIsNotPositiveIsRefused(long seconds) {
    assertRefused(
        () -> with(D.maxClockSkew(), D.publishTimeout(), Duration.ofSeconds(seconds)),
        "storeTimeout");
  }

  @Test
  void aMissingDurationIsRefusedWithTheCodeNotANullPointer() {
    assertRefused(() -> with(null, D.publishTimeout(), D.storeTimeout()), "maxClockSkew");
  }

  @Test
  void aZeroSkewIsAccepted() {
    assertThat(with(Duration.ZERO, D.publishTimeout(), D.storeTimeout()).maxClockSkew()).isZero();
  }

  @Test
  void theBackoffDoublesUpToItsCapWithoutOverflowing() {
    RelaySettings slow = D.withAttempts(40, Duration.ofDays(20_000));

    assertThat(slow.backoffAfter(1)).isEqualTo(Duration.ofDays(20_000));
    assertThat(slow.backoffAfter(40)).isEqualTo(slow.maxBackoff());
    assertThat(D.backoffAfter(3)).isEqualTo(Duration.ofSeconds(4));
    assertThat(D.backoffAfter(30)).isEqualTo(D.maxBackoff());
  }

  @Test
  void settingsThatLeaveNoRoomForAPublishAreRefused() {
    RelaySettings d = RelaySettings.defaults();
    assertThatThrownBy(
            () ->
                new RelaySettings(
                    d.scanLimit(),
                    d.publishLimit(),
                    d.maxAttempts(),
                    d.baseBackoff(),
                    d.maxBackoff(),
                    d.claimLease(),
                    d.maxClockSkew(),
                    Duration.ofSeconds(20),
                    Duration.ofSeconds(5),
                    Duration.ofSeconds(30),
                    d.maxEnvelopeBytes(),
                    d.retainSent()))
        .hasMessageContaining("sweepDeadline");
  }
}
