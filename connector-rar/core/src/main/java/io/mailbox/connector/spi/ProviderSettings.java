package io.mailbox.connector.spi;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import java.time.Duration;
import java.util.function.Function;

/**
 * The values of a provider's declared {@link Setting}s as the adapter was configured, read as the
 * provider needs them. A value out of range is refused with {@code MBX-1008} naming the property,
 * never the value (it may be a password).
 */
public final class ProviderSettings {
  private final Function<String, String> configured;

  /**
   * @param configured the configured text of a property, or {@code null} when it was not set (the
   *     setting's default applies)
   */
  public ProviderSettings(Function<String, String> configured) {
    this.configured = configured;
  }

  /** The text of {@code setting}: as configured, else its default. */
  public String text(Setting setting) {
    String value = configured.apply(setting.property());
    return value == null ? setting.defaultValue() : value;
  }

  /** A whole number of at least {@code min}. */
  public int integer(Setting setting, int min) {
    long value = number(setting);
    if (value < min || value > Integer.MAX_VALUE) {
      throw invalid(setting, "must be " + min + " or more");
    }
    return (int) value;
  }

  /** A duration in milliseconds, zero or more. */
  public Duration millis(Setting setting) {
    long value = number(setting);
    if (value < 0) {
      throw invalid(setting, "must be zero or more");
    }
    return Duration.ofMillis(value);
  }

  /** A duration in milliseconds, more than zero. */
  public Duration positiveMillis(Setting setting) {
    long value = number(setting);
    if (value <= 0) {
      throw invalid(setting, "must be more than zero");
    }
    return Duration.ofMillis(value);
  }

  private long number(Setting setting) {
    try {
      return Long.parseLong(text(setting).strip());
    } catch (NumberFormatException e) {
      throw invalid(setting, "must be a whole number");
    }
  }

  /** The refusal of a provider setting: {@code MBX-1008}, the property and the rule. */
  public static MailboxException invalid(Setting setting, String rule) {
    return invalid(setting.property(), rule);
  }

  /** The refusal of a setting by name: {@code MBX-1008}, the property and the rule. */
  public static MailboxException invalid(String property, String rule) {
    return new MailboxException(
        ErrorCode.INVALID_POLICY,
        "Adapter property " + property + " " + rule + "; see META-INF/ra.xml for its range.");
  }
}
