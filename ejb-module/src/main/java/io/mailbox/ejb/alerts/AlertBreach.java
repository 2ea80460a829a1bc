package io.mailbox.ejb.alerts;

/**
 * One address over one limit of one rule.
 *
 * @param value what the address measured
 * @param limit the rule's limit, which {@code value} exceeds
 */
public record AlertBreach(
    String rule, String address, AlertMeasure measure, long value, long limit) {

  /** What identifies the breach from one reading to the next: rule, address and measure. */
  String key() {
    return rule + '\u0000' + address + '\u0000' + measure.key();
  }
}
