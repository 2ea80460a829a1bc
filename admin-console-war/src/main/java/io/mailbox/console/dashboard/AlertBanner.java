package io.mailbox.console.dashboard;

import com.vaadin.flow.component.details.Details;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.ListItem;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.html.UnorderedList;
import io.mailbox.ejb.alerts.AlertBreach;
import io.mailbox.ejb.alerts.AlertRule;
import io.mailbox.ejb.alerts.AlertState;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Above the grid: the active breaches of the alert rules (red, at most {@link #SHOWN} listed) or
 * "no alerts", and the rules themselves, read only: they are settings ({@code mailbox.alerts.*}),
 * changed where the server's configuration lives, not in the console.
 */
final class AlertBanner extends Div {
  static final int SHOWN = 10;
  private static final java.time.format.DateTimeFormatter SINCE =
      java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
          .withZone(java.time.ZoneOffset.UTC);

  private final Span headline = new Span();
  private final UnorderedList breaches = new UnorderedList();
  private final UnorderedList rules = new UnorderedList();

  AlertBanner() {
    setId("alerts");
    headline.setId("alerts-headline");
    breaches.setId("alerts-active");
    rules.setId("alert-rules");
    breaches.getStyle().set("margin", "0.25rem 0");
    Details ruleList = new Details("Alert rules (read only: mailbox.alerts.* settings)", rules);
    ruleList.setId("alert-rules-details");
    add(headline, breaches, ruleList);
  }

  void show(AlertState.Report report) {
    List<AlertState.Active> active = report.active();
    breaches.removeAll();
    if (active.isEmpty()) {
      headline.setText("No alerts: every address is within its rules.");
      headline.getStyle().set("color", "var(--lumo-success-text-color)").set("font-weight", "400");
    } else {
      headline.setText(
          active.size()
              + (active.size() == 1 ? " alert" : " alerts")
              + " — addresses over a rule:");
      headline.getStyle().set("color", "var(--lumo-error-text-color)").set("font-weight", "600");
      active.stream()
          .limit(SHOWN)
          .forEach(
              a ->
                  breaches.add(
                      new ListItem(describe(a.breach()) + " since " + SINCE.format(a.since()))));
      if (active.size() > SHOWN) {
        breaches.add(
            new ListItem("… and " + (active.size() - SHOWN) + " more (GET /console/api/alerts)"));
      }
      breaches.getStyle().set("color", "var(--lumo-error-text-color)");
    }
    rules.removeAll();
    report.rules().forEach(rule -> rules.add(new ListItem(describe(rule))));
  }

  /** "parked: jdbc://orders@shop has parked 3 > 0". */
  static String describe(AlertBreach breach) {
    return breach.rule()
        + ": "
        + breach.address()
        + " has "
        + breach.measure().key()
        + " "
        + breach.measure().shown(breach.value())
        + " > "
        + breach.measure().shown(breach.limit());
  }

  /** "orders-backlog: jdbc://orders* — backlog > 1000, in-flight > 50". */
  static String describe(AlertRule rule) {
    return rule.name()
        + ": "
        + rule.addresses()
        + " — "
        + rule.limits().entrySet().stream()
            .map(limit -> limit.getKey().key() + " > " + limit.getKey().shown(limit.getValue()))
            .collect(Collectors.joining(", "));
  }
}
