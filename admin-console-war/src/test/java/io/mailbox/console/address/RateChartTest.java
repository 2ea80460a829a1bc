package io.mailbox.console.address;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.console.metrics.RateHistory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RateChartTest {
  private static final Instant NOW = Instant.parse("2026-12-04T10:10:00Z");

  @Test
  void theScaleIsTheNextOneTwoOrFiveTimesAPowerOfTen() {
    assertThat(RateChart.niceCeiling(0.3)).isEqualTo(0.5);
    assertThat(RateChart.niceCeiling(7)).isEqualTo(10);
    assertThat(RateChart.niceCeiling(12)).isEqualTo(20);
    assertThat(RateChart.niceCeiling(200)).isEqualTo(200);
    assertThat(RateChart.perSecond(0.5)).isEqualTo("0.5/s");
    assertThat(RateChart.perSecond(20)).isEqualTo("20/s");
  }

  @Test
  void bothRatesAreDrawnOnATimeAxisEndingNowScaledToTheLarger() {
    List<RateHistory.Point> points =
        List.of(
            new RateHistory.Point(NOW.minusSeconds(300), 4, 2), new RateHistory.Point(NOW, 8, 8));

    String svg = RateChart.svg(points, NOW, Duration.ofMinutes(10));

    assertThat(svg)
        .contains(">10/s<")
        .contains(">posted<")
        .contains(">delivered<")
        .contains(">now<");
    assertThat(svg.split("<polyline", -1)).hasSize(3);
    // The last point is at the right edge, the first halfway along (5 of 10 minutes ago).
    assertThat(svg).contains("632.0,").contains("344.0,");
  }

  @Test
  void withoutPointsTheFrameIsDrawnAndSaysWhenRatesStart() {
    assertThat(RateChart.svg(List.of(), NOW, Duration.ofMinutes(10))).doesNotContain("<polyline");
    assertThat(RateChart.now(List.of())).contains("second reading");
    assertThat(RateChart.now(List.of(new RateHistory.Point(NOW, 3.25, 3))))
        .isEqualTo("Now: posted 3.3/s · delivered 3.0/s (over the last reading's interval)");
  }
}
