package io.mailbox.console.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class SparklineTest {
  @Test
  void theLineIsScaledToTheSeriesMaximumAndSpansTheWidth() {
    String svg = Sparkline.svg(List.of(0L, 5L, 10L));

    assertThat(svg).startsWith("<svg").contains("points=\"0.0,17.0 45.0,9.0 90.0,1.0\"");
  }

  @Test
  void anEmptyOrIdleSeriesIsAFlatLineAtTheBottom() {
    assertThat(Sparkline.svg(List.of())).contains("points=\"0,17 90,17\"");
    assertThat(Sparkline.svg(List.of(0L, 0L))).contains("points=\"0.0,17.0 90.0,17.0\"");
    assertThat(Sparkline.svg(List.of(4L))).contains("points=\"0.0,1.0 90.0,1.0\"");
  }

  @Test
  void theHistoryKeepsOneSampleAnIntervalAndOnlyTheLastOnes() {
    BacklogHistory history = new BacklogHistory();
    Instant t = Instant.parse("2026-11-30T10:00:00Z");
    AddressRow row = new AddressRow("jdbc://a@b/c", "jdbc", "online", 3, 0, 1, null, 0, 0, 0);

    history.record(List.of(row), t);
    history.record(List.of(row), t.plusMillis(500)); // too soon: ignored
    for (int i = 1; i <= BacklogHistory.SAMPLES + 5; i++) {
      history.record(List.of(row), t.plusSeconds(2L * i));
    }

    assertThat(history.of("jdbc://a@b/c")).hasSize(BacklogHistory.SAMPLES);
    assertThat(history.of("jdbc://never@seen/x")).isEmpty();
  }

  @Test
  void anAddressNeedsAttentionWhenNotOnlineOrWithOverdueLeasesOrParkedRecords() {
    assertThat(new AddressRow("a", "jdbc", "online", 0, 0, 0, null, 0, 0, 0).needsAttention())
        .isFalse();
    assertThat(new AddressRow("a", "amqp", "offline", 0, 0, 0, null, -1, -1, -1).needsAttention())
        .isTrue();
    assertThat(new AddressRow("a", "jdbc", "online", 0, 1, 0, null, 1, 0, -1).needsAttention())
        .isTrue();
    assertThat(new AddressRow("a", "jdbc", "online", 0, 0, 0, null, 0, 2, -1).needsAttention())
        .isTrue();
  }
}
