package io.mailbox.ejb.alerts;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.Snapshot;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.Config;

/**
 * The alert rules, read once from MicroProfile Config: {@code mailbox.alerts.<rule>.addresses} (a
 * pattern, default {@code *}), {@code mailbox.alerts.<rule>.<measure>} (the largest fine value) and
 * {@code mailbox.alerts.<rule>.enabled}; {@code mailbox.alerts.rules} names rules whose keys are
 * environment variables ({@code MAILBOX_ALERTS_<RULE>_<FIELD>}, dashes as underscores). Four rules
 * apply out of the box, each overridable by its name: {@code parked} (any parked record), {@code
 * dead-letters} (any dead letter waiting), {@code overdue-leases} (any lease ended unsettled) and
 * {@code oldest-unread} (a message unread for over {@value #OLDEST_UNREAD_SECONDS} s). A wrong key
 * or value is refused with the key's name ({@code MBX-1008}) when the rules are read, at
 * application start.
 */
public final class AlertRules {
  /** The keys' common prefix. */
  public static final String PREFIX = "mailbox.alerts.";

  /** Rules to read besides the defaults and those found by their dotted keys, comma-separated. */
  public static final String RULES = "mailbox.alerts.rules";

  static final String ADDRESSES = "addresses";
  static final String ENABLED = "enabled";
  private static final Pattern RULE_NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");

  /** The default rule's limit on the oldest unread message's wait: five minutes. */
  static final long OLDEST_UNREAD_SECONDS = 300;

  /** The rules that apply out of the box, by name. */
  private static final Map<String, Map<AlertMeasure, Long>> DEFAULTS =
      Map.of(
          "parked", Map.of(AlertMeasure.PARKED, 0L),
          "dead-letters", Map.of(AlertMeasure.DEAD_LETTERS, 0L),
          "overdue-leases", Map.of(AlertMeasure.OVERDUE, 0L),
          "oldest-unread", Map.of(AlertMeasure.OLDEST_UNREAD, OLDEST_UNREAD_SECONDS));

  private static final String MEASURES =
      String.join(
          ", ", java.util.Arrays.stream(AlertMeasure.values()).map(AlertMeasure::key).toList());

  private final List<AlertRule> rules;

  AlertRules(List<AlertRule> rules) {
    this.rules = List.copyOf(rules);
  }

  /** The rules in effect: the defaults, overridden and added to by {@code config}. */
  public static AlertRules from(Config config) {
    Set<String> names = new TreeSet<>(DEFAULTS.keySet());
    config
        .getOptionalValue(RULES, String.class)
        .ifPresent(
            listed -> {
              for (String name : listed.split(",")) {
                if (!name.isBlank()) {
                  names.add(checkedName(RULES, name.trim()));
                }
              }
            });
    // Rules set with dotted keys (system properties, microprofile-config.properties) are found by
    // their keys, and a key naming no field is refused. Environment variables cannot be listed
    // back to dotted keys unambiguously: their rules are named in mailbox.alerts.rules.
    for (String key : config.getPropertyNames()) {
      if (!key.startsWith(PREFIX) || key.equals(RULES)) {
        continue;
      }
      String rest = key.substring(PREFIX.length());
      int dot = rest.indexOf('.');
      if (dot < 0) {
        throw refused(key, "is not mailbox.alerts.<rule>.<field>");
      }
      String field = rest.substring(dot + 1);
      if (!field.equals(ADDRESSES)
          && !field.equals(ENABLED)
          && AlertMeasure.byKey(field).isEmpty()) {
        throw refused(key, "names no field: addresses, enabled, or a measure (" + MEASURES + ")");
      }
      names.add(checkedName(key, rest.substring(0, dot)));
    }
    List<AlertRule> rules = new ArrayList<>();
    for (String name : names) {
      String key = PREFIX + name + ".";
      String enabled = text(config, key + ENABLED).orElse("true");
      if (!enabled.equalsIgnoreCase("true") && !enabled.equalsIgnoreCase("false")) {
        throw refused(key + ENABLED, "must be true or false");
      }
      if (enabled.equalsIgnoreCase("true")) {
        rules.add(rule(config, name));
      }
    }
    return new AlertRules(rules);
  }

  private static AlertRule rule(Config config, String name) {
    String key = PREFIX + name + ".";
    String addresses = text(config, key + ADDRESSES).orElse("*");
    if (addresses.length() > 1000) {
      throw refused(key + ADDRESSES, "must be an address pattern of 1 to 1000 characters");
    }
    Map<AlertMeasure, Long> limits = new EnumMap<>(AlertMeasure.class);
    limits.putAll(DEFAULTS.getOrDefault(name, Map.of()));
    for (AlertMeasure measure : AlertMeasure.values()) {
      text(config, key + measure.key())
          .ifPresent(limit -> limits.put(measure, limit(key + measure.key(), limit)));
    }
    if (limits.isEmpty()) {
      throw refused(key + "<measure>", "is missing: the rule limits nothing (" + MEASURES + ")");
    }
    return new AlertRule(name, addresses, limits);
  }

  private static Optional<String> text(Config config, String key) {
    return config.getOptionalValue(key, String.class).map(String::trim).filter(t -> !t.isEmpty());
  }

  private static String checkedName(String key, String name) {
    if (!RULE_NAME.matcher(name).matches()) {
      throw refused(key, "names a rule that is not 1 to 64 of a-z, 0-9 and - (not first)");
    }
    return name;
  }

  private static long limit(String key, String text) {
    try {
      long limit = Long.parseLong(text);
      if (limit >= 0) {
        return limit;
      }
    } catch (NumberFormatException e) {
      // refused below, like a negative limit
    }
    throw refused(key, "must be a whole number from 0 up (a breach is a value above it)");
  }

  private static MailboxException refused(String key, String why) {
    return new MailboxException(
        ErrorCode.INVALID_POLICY, key + " " + why + "; fix the setting and restart.");
  }

  public List<AlertRule> rules() {
    return rules;
  }

  /**
   * Every limit of every rule that an address of {@code snapshot} exceeds, in address order.
   *
   * @param deadLetterAddresses the addresses dead letters go to (their backlog is dead letters)
   */
  public List<AlertBreach> breaches(Snapshot snapshot, Set<String> deadLetterAddresses) {
    List<AlertBreach> breaches = new ArrayList<>();
    for (AddressStatus status : snapshot.addresses()) {
      String address = status.address().toString();
      boolean deadLetters = deadLetterAddresses.contains(address);
      for (AlertRule rule : rules) {
        if (!rule.watches(address)) {
          continue;
        }
        rule.limits()
            .forEach(
                (measure, limit) ->
                    measure
                        .of(status, deadLetters)
                        .filter(value -> value > limit)
                        .ifPresent(
                            value ->
                                breaches.add(
                                    new AlertBreach(rule.name(), address, measure, value, limit))));
      }
    }
    return breaches;
  }
}
