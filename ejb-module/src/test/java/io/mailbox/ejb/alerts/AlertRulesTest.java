package io.mailbox.ejb.alerts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.Snapshot;
import io.mailbox.ejb.testsupport.MapConfig;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AlertRulesTest {

  @Test
  void outOfTheBoxAnyParkedRecordDeadLetterOverdueLeaseOrFiveMinutesUnreadIsABreach() {
    AlertRules rules = AlertRules.from(new MapConfig(Map.of()));

    assertThat(rules.rules())
        .extracting(AlertRule::name)
        .containsExactly("dead-letters", "oldest-unread", "overdue-leases", "parked");
    List<AlertBreach> breaches =
        rules.breaches(
            snapshot(
                status(
                    "jdbc://orders@shop",
                    5,
                    Map.of(
                        "jdbc.parkedCount", 1L,
                        "jdbc.overdueInFlightCount", 0L,
                        "jdbc.oldestUnreadMs", 300_999L)),
                status(
                    "jdbc://orders.dlq@shop",
                    2,
                    Map.of("jdbc.parkedCount", 0L, "jdbc.oldestUnreadMs", 3_600_000L)),
                status("jdbc://forgotten@shop", 1, Map.of("jdbc.oldestUnreadMs", 301_000L)),
                status("jdbc://quiet@shop", 0, Map.of("jdbc.parkedCount", 0L))),
            Set.of("jdbc://orders.dlq@shop"));

    assertThat(breaches)
        .as("300 s is the largest fine wait; a dead letter's wait is the dead-letters rule's")
        .containsExactly(
            new AlertBreach("parked", "jdbc://orders@shop", AlertMeasure.PARKED, 1, 0),
            new AlertBreach(
                "dead-letters", "jdbc://orders.dlq@shop", AlertMeasure.DEAD_LETTERS, 2, 0),
            new AlertBreach(
                "oldest-unread", "jdbc://forgotten@shop", AlertMeasure.OLDEST_UNREAD, 301, 300));
  }

  @Test
  void aRuleWatchesTheAddressesItsPatternMatchesAndBreachesOnlyAboveItsLimit() {
    AlertRules rules =
        AlertRules.from(
            new MapConfig(
                Map.of(
                    "mailbox.alerts.orders-backlog.addresses", "jdbc://orders*",
                    "mailbox.alerts.orders-backlog.backlog", "100",
                    "mailbox.alerts.orders-backlog.in-flight", "10",
                    "mailbox.alerts.parked.enabled", "false",
                    "mailbox.alerts.dead-letters.enabled", "false",
                    "mailbox.alerts.overdue-leases.enabled", "false")));

    List<AlertBreach> breaches =
        rules.breaches(
            snapshot(
                status("jdbc://orders@shop", 100, Map.of()),
                status("jdbc://orders-eu@shop", 101, Map.of()),
                status("jdbc://invoices@shop", 5000, Map.of()),
                status("mem://jdbcorders@shop", 5000, Map.of())),
            Set.of());

    assertThat(breaches)
        .as("100 is the largest fine value; other addresses are not watched")
        .containsExactly(
            new AlertBreach(
                "orders-backlog", "jdbc://orders-eu@shop", AlertMeasure.BACKLOG, 101, 100));
  }

  @Test
  void aMeasureTheProviderDoesNotReportNeverBreaches() {
    AlertRules rules = AlertRules.from(new MapConfig(Map.of()));

    assertThat(rules.breaches(snapshot(status("kafka://orders@shop", 10, Map.of())), Set.of()))
        .as("kafka: reports no parked or overdue counts: not measured, not zero")
        .isEmpty();
  }

  @Test
  void aUserSettingOverridesADefaultRuleByName() {
    AlertRules rules =
        AlertRules.from(
            new MapConfig(
                Map.of(
                    "mailbox.alerts.parked.parked",
                    "5",
                    "mailbox.alerts.parked.addresses",
                    "mem:*")));

    AlertRule parked =
        rules.rules().stream().filter(r -> r.name().equals("parked")).findFirst().orElseThrow();
    assertThat(parked.addresses()).isEqualTo("mem:*");
    assertThat(parked.limits()).containsExactly(Map.entry(AlertMeasure.PARKED, 5L));
  }

  @Test
  void rulesSetByEnvironmentVariablesAreNamedInTheRulesList() {
    // As MicroProfile Config resolves MAILBOX_ALERTS_BIG_DLQ_DEAD_LETTERS: the dotted key is found
    // when asked for, but the names the config lists are the variables' own.
    AlertRules rules =
        AlertRules.from(
            MapConfig.listingOnly(
                Map.of(
                    "mailbox.alerts.rules", "big-dlq, orders",
                    "mailbox.alerts.big-dlq.dead-letters", "100",
                    "mailbox.alerts.orders.backlog", "5",
                    "mailbox.alerts.orders.addresses", "jdbc://orders*"),
                List.of("MAILBOX_ALERTS_RULES", "MAILBOX_ALERTS_BIG_DLQ_DEAD_LETTERS")));

    assertThat(rules.rules())
        .extracting(AlertRule::toString)
        .contains("big-dlq (*: {DEAD_LETTERS=100})", "orders (jdbc://orders*: {BACKLOG=5})");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "mailbox.alerts.orders.backlog | -1 | mailbox.alerts.orders.backlog must be a whole number",
        "mailbox.alerts.orders.backlog | lots | mailbox.alerts.orders.backlog must be a whole number",
        "mailbox.alerts.orders.oldest | 5 | mailbox.alerts.orders.oldest names no field",
        "mailbox.alerts.Orders.backlog | 5 | mailbox.alerts.Orders.backlog names a rule that is not",
        "mailbox.alerts.orders | 5 | mailbox.alerts.orders is not",
        "mailbox.alerts.orders.addresses | jdbc:* | mailbox.alerts.orders.<measure> is missing",
        "mailbox.alerts.parked.enabled | maybe | mailbox.alerts.parked.enabled must be true or false",
      })
  void aWrongSettingIsRefusedWithItsKey(String key, String value, String message) {
    assertThatThrownBy(() -> AlertRules.from(new MapConfig(Map.of(key, value))))
        .isInstanceOf(MailboxException.class)
        .hasMessageContaining(message)
        .hasMessageContaining("fix the setting and restart")
        .satisfies(
            e ->
                assertThat(((MailboxException) e).errorCode()).isEqualTo(ErrorCode.INVALID_POLICY));
  }

  @Test
  void patternsMatchWholeAddressesWithStarsAnywhere() {
    AlertRule rule = new AlertRule("r", "*:orders.*", Map.of(AlertMeasure.BACKLOG, 0L));

    assertThat(rule.watches("jdbc:orders.eu")).isTrue();
    assertThat(rule.watches("mem:orders.")).isTrue();
    assertThat(rule.watches("jdbc:orders")).isFalse();
    assertThat(rule.watches("jdbc:ordersXeu")).as("a dot is a dot, not any character").isFalse();
    assertThat(new AlertRule("r", "jdbc:orders", Map.of()).watches("jdbc:orders.eu")).isFalse();
  }

  static Snapshot snapshot(AddressStatus... addresses) {
    return new Snapshot(
        AddressState.ONLINE,
        Instant.parse("2026-12-04T10:00:00Z"),
        List.of(addresses),
        List.of(),
        List.of());
  }

  static AddressStatus status(String address, long unread, Map<String, Object> extensions) {
    return new AddressStatus(
        MailAddress.parse(address), AddressState.ONLINE, true, unread, 0, null, extensions);
  }
}
