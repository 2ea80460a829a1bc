package io.mailbox.ejb.alerts;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which breaches are active, since when, and how many began per rule: fed one reading at a time
 * (every 5 s by the console's metrics), read by the dashboard, the admin API, readiness and the
 * metrics. A breach that lasts across readings is one breach; one that ends and comes back is two.
 */
public final class AlertState {
  /** A breach and the reading it was first seen in. */
  public record Active(AlertBreach breach, Instant since) {}

  /**
   * What the rules saw at {@code takenAt}: the active breaches (rule, then address order) and the
   * breaches begun per rule since the application started (every rule listed, 0 when none).
   */
  public record Report(
      Instant takenAt, List<AlertRule> rules, List<Active> active, Map<String, Long> begun) {

    public static Report empty(List<AlertRule> rules) {
      Map<String, Long> none = new TreeMap<>();
      rules.forEach(rule -> none.put(rule.name(), 0L));
      return new Report(Instant.EPOCH, rules, List.of(), none);
    }

    /** Active breaches per rule name, every rule listed (0 when none). */
    public Map<String, Long> activeByRule() {
      Map<String, Long> counts = new TreeMap<>();
      rules.forEach(rule -> counts.put(rule.name(), 0L));
      active.forEach(a -> counts.merge(a.breach().rule(), 1L, Long::sum));
      return counts;
    }

    /** The active breaches at {@code address}. */
    public List<AlertBreach> at(String address) {
      return active.stream().map(Active::breach).filter(b -> b.address().equals(address)).toList();
    }
  }

  private final AlertRules rules;
  private Map<String, Active> active = new LinkedHashMap<>();
  private final Map<String, Long> begun = new TreeMap<>();
  private volatile Report report;

  public AlertState(AlertRules rules) {
    this.rules = rules;
    rules.rules().forEach(rule -> begun.put(rule.name(), 0L));
    this.report = Report.empty(rules.rules());
  }

  public AlertRules rules() {
    return rules;
  }

  /** Takes the breaches of one reading: new ones begin now, absent ones end. */
  public synchronized Report observe(List<AlertBreach> breaches, Instant takenAt) {
    Map<String, Active> next = new LinkedHashMap<>();
    for (AlertBreach breach : breaches) {
      Active before = active.get(breach.key());
      if (before == null) {
        begun.merge(breach.rule(), 1L, Long::sum);
      }
      next.put(breach.key(), new Active(breach, before == null ? takenAt : before.since()));
    }
    active = next;
    List<Active> sorted = new ArrayList<>(next.values());
    sorted.sort(
        java.util.Comparator.comparing((Active a) -> a.breach().rule())
            .thenComparing(a -> a.breach().address())
            .thenComparing(a -> a.breach().measure()));
    report =
        new Report(
            takenAt,
            rules.rules(),
            List.copyOf(sorted),
            java.util.Collections.unmodifiableMap(new TreeMap<>(begun)));
    return report;
  }

  /** The newest report (no breaches before the first reading). */
  public Report report() {
    return report;
  }
}
