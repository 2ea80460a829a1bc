package io.mailbox.ejb.alerts;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A named threshold: the addresses it watches and, per measure, the largest value that is still
 * fine (a breach is a value above it: a limit of 0 alerts on any).
 */
public final class AlertRule {
  private final String name;
  private final String addresses;
  private final Map<AlertMeasure, Long> limits;
  private final Pattern watched;

  /**
   * @param addresses a pattern of canonical addresses, {@code *} standing for any run of characters
   *     ({@code jdbc:orders*}, {@code *}); matched whole, case-sensitive
   */
  public AlertRule(String name, String addresses, Map<AlertMeasure, Long> limits) {
    this.name = name;
    this.addresses = addresses;
    this.limits = java.util.Collections.unmodifiableMap(new TreeMap<>(limits));
    this.watched = glob(addresses);
  }

  public String name() {
    return name;
  }

  public String addresses() {
    return addresses;
  }

  /** By measure, in the measures' order. */
  public Map<AlertMeasure, Long> limits() {
    return limits;
  }

  boolean watches(String address) {
    return watched.matcher(address).matches();
  }

  private static Pattern glob(String pattern) {
    List<String> literals = new ArrayList<>();
    for (String literal : pattern.split("\\*", -1)) {
      literals.add(literal.isEmpty() ? "" : Pattern.quote(literal));
    }
    return Pattern.compile(String.join(".*", literals), Pattern.DOTALL);
  }

  @Override
  public String toString() {
    return name + " (" + addresses + ": " + limits + ")";
  }
}
