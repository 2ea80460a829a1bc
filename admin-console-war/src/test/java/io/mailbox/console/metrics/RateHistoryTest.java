package io.mailbox.console.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.AddressTraffic;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RateHistoryTest {
  private static final String ORDERS = "jdbc://orders@shop/placed";
  private static final Instant T0 = Instant.parse("2026-12-04T10:00:00Z");
  private final RateHistory history = new RateHistory();

  private static AddressTraffic counted(String address, long posted, long delivered) {
    return new AddressTraffic(address, "jdbc", posted, 0, 0, delivered, delivered, 0, 0, 0, 0);
  }

  @Test
  void aRateIsTheCountersIncreaseOverTheTimeBetweenTwoReadings() {
    history.record(List.of(counted(ORDERS, 100, 90)), T0);
    assertThat(history.of(ORDERS)).as("one reading: no interval yet").isEmpty();

    history.record(List.of(counted(ORDERS, 150, 100)), T0.plusSeconds(5));

    assertThat(history.of(ORDERS))
        .containsExactly(new RateHistory.Point(T0.plusSeconds(5), 10.0, 2.0));
  }

  @Test
  void aCounterThatWentDownStartsTheSeriesAfreshInsteadOfChartingANegativeRate() {
    history.record(List.of(counted(ORDERS, 100, 100)), T0);
    history.record(List.of(counted(ORDERS, 110, 110)), T0.plusSeconds(5));
    history.record(List.of(counted(ORDERS, 3, 3)), T0.plusSeconds(10)); // the adapter restarted
    assertThat(history.of(ORDERS)).isEmpty();

    history.record(List.of(counted(ORDERS, 13, 8)), T0.plusSeconds(15));
    assertThat(history.of(ORDERS))
        .containsExactly(new RateHistory.Point(T0.plusSeconds(15), 2.0, 1.0));
  }

  @Test
  void pointsOlderThanTheWindowAreDropped() {
    long posted = 0;
    for (int i = 0; i <= 130; i++) {
      history.record(List.of(counted(ORDERS, posted, 0)), T0.plusSeconds(5L * i));
      posted += 5;
    }

    List<RateHistory.Point> points = history.of(ORDERS);
    assertThat(points).hasSize(121);
    assertThat(points.get(0).at()).isEqualTo(T0.plusSeconds(5L * 130).minus(RateHistory.WINDOW));
    assertThat(points).allMatch(p -> p.postedPerSecond() == 1.0);
  }

  @Test
  void theAddressIdleLongestIsDroppedPastTheBound() {
    List<AddressTraffic> many = new ArrayList<>();
    for (int i = 0; i < RateHistory.MAX_ADDRESSES; i++) {
      many.add(counted("jdbc://a" + i + "@shop/q", 0, 0));
    }
    history.record(many, T0);
    history.record(List.of(counted("jdbc://a0@shop/q", 5, 0)), T0.plusSeconds(5));
    history.record(List.of(counted("jdbc://late@shop/q", 1, 0)), T0.plusSeconds(10));
    history.record(List.of(counted("jdbc://a0@shop/q", 10, 0)), T0.plusSeconds(10));

    assertThat(history.of("jdbc://a0@shop/q")).as("recently read: kept").hasSize(2);
    history.record(List.of(counted("jdbc://a1@shop/q", 5, 0)), T0.plusSeconds(15));
    assertThat(history.of("jdbc://a1@shop/q"))
        .as("idle longest, dropped: its next reading is a first one again")
        .isEmpty();
    history.record(List.of(counted("jdbc://a1999@shop/q", 5, 0)), T0.plusSeconds(15));
    assertThat(history.of("jdbc://a1999@shop/q")).as("read after the others: kept").hasSize(1);
  }
}
