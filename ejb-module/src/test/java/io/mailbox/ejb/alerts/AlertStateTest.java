package io.mailbox.ejb.alerts;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.ejb.testsupport.MapConfig;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AlertStateTest {
  private static final Instant T0 = Instant.parse("2026-12-04T10:00:00Z");
  private static final AlertBreach PARKED =
      new AlertBreach("parked", "jdbc:orders", AlertMeasure.PARKED, 1, 0);
  private static final AlertBreach DEAD =
      new AlertBreach("dead-letters", "jdbc:orders.dlq", AlertMeasure.DEAD_LETTERS, 3, 0);

  private final AlertState state = new AlertState(AlertRules.from(new MapConfig(Map.of())));

  @Test
  void beforeAnyReadingEveryRuleIsListedWithNothingActive() {
    AlertState.Report report = state.report();

    assertThat(report.active()).isEmpty();
    assertThat(report.begun())
        .containsExactly(
            Map.entry("dead-letters", 0L),
            Map.entry("oldest-unread", 0L),
            Map.entry("overdue-leases", 0L),
            Map.entry("parked", 0L));
    assertThat(report.activeByRule()).containsEntry("parked", 0L);
  }

  @Test
  void aBreachLastingAcrossReadingsKeepsItsStartAndCountsOnce() {
    state.observe(List.of(PARKED), T0);
    AlertState.Report later =
        state.observe(
            List.of(new AlertBreach("parked", "jdbc:orders", AlertMeasure.PARKED, 4, 0), DEAD),
            T0.plusSeconds(5));

    assertThat(later.active())
        .extracting(AlertState.Active::since)
        .containsExactly(T0.plusSeconds(5), T0);
    assertThat(later.active().get(1).breach().value()).as("the newest value").isEqualTo(4);
    assertThat(later.begun()).containsEntry("parked", 1L).containsEntry("dead-letters", 1L);
    assertThat(later.activeByRule())
        .containsEntry("parked", 1L)
        .containsEntry("overdue-leases", 0L);
    assertThat(later.at("jdbc:orders")).hasSize(1);
  }

  @Test
  void aBreachThatEndsAndComesBackIsTwoBreaches() {
    state.observe(List.of(PARKED), T0);
    state.observe(List.of(), T0.plusSeconds(5));
    AlertState.Report back = state.observe(List.of(PARKED), T0.plusSeconds(10));

    assertThat(back.begun()).containsEntry("parked", 2L);
    assertThat(back.active())
        .extracting(AlertState.Active::since)
        .containsExactly(T0.plusSeconds(10));
  }
}
