package io.mailbox.console.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.ejb.alerts.AlertBreach;
import io.mailbox.ejb.alerts.AlertMeasure;
import io.mailbox.ejb.alerts.AlertRule;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AlertBannerTest {

  @Test
  void aWaitIsShownInSecondsAndACountBare() {
    assertThat(
            AlertBanner.describe(
                new AlertBreach(
                    "oldest-unread", "jdbc://orders@shop", AlertMeasure.OLDEST_UNREAD, 412, 300)))
        .isEqualTo("oldest-unread: jdbc://orders@shop has oldest-unread 412 s > 300 s");
    assertThat(
            AlertBanner.describe(
                new AlertBreach("parked", "jdbc://orders@shop", AlertMeasure.PARKED, 3, 0)))
        .isEqualTo("parked: jdbc://orders@shop has parked 3 > 0");
  }

  @Test
  void aRuleListsEachLimitWithItsUnit() {
    assertThat(
            AlertBanner.describe(
                new AlertRule(
                    "slow-orders", "jdbc://orders*", Map.of(AlertMeasure.OLDEST_UNREAD, 60L))))
        .isEqualTo("slow-orders: jdbc://orders* — oldest-unread > 60 s");
  }
}
