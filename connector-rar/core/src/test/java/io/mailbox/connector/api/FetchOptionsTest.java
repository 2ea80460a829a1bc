package io.mailbox.connector.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FetchOptionsTest {

  @Test
  void peekWithAManualAckIsRefusedBeforeAnythingIsTaken() {
    assertThatThrownBy(() -> new FetchOptions(1, true, null, true))
        .hasMessageStartingWith("MBX-1006");
  }

  @Test
  void aLimitOutOfRangeIsRefused() {
    assertThatThrownBy(() -> FetchOptions.peek(0)).hasMessageStartingWith("MBX-1006");
    assertThatThrownBy(() -> FetchOptions.autoAck().limit(FetchOptions.MAX_LIMIT + 1))
        .hasMessageStartingWith("MBX-1006");
  }

  @Test
  void aNegativeAckTimeoutOrOneWithoutManualAckIsRefused() {
    assertThatThrownBy(() -> FetchOptions.leased(Duration.ofSeconds(-1)))
        .hasMessageStartingWith("MBX-1006");
    assertThatThrownBy(() -> new FetchOptions(1, false, Duration.ofSeconds(1), false))
        .hasMessageStartingWith("MBX-1006");
  }

  @Test
  void theDefaultLeaseIsThirtySecondsAndZeroMeansForever() {
    assertThat(FetchOptions.leased().effectiveAckTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(FetchOptions.leased(Duration.ZERO).effectiveAckTimeout()).isZero();
  }
}
