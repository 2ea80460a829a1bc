package io.mailbox.connector.spi;

/**
 * One configuration property of the adapter, declared once: its name (a bean property of the
 * resource adapter, or a key of its {@code providerSettings}), its type, its default and what it
 * does. {@code ra.xml} and docs/configuration.md repeat these, and a build test fails when they
 * drift apart.
 *
 * @param property the property name, for example {@code amqpPrefetch}
 * @param type {@link String}, {@link Integer}, {@link Long} or {@link Boolean}
 * @param defaultValue the default as text ({@code ""} for "empty")
 * @param description one line for operators
 */
public record Setting(String property, Class<?> type, String defaultValue, String description) {

  public Setting {
    if (type != String.class
        && type != Integer.class
        && type != Long.class
        && type != Boolean.class) {
      throw new IllegalArgumentException(property + ": unsupported type " + type.getName());
    }
  }

  public static Setting text(String property, String defaultValue, String description) {
    return new Setting(property, String.class, defaultValue, description);
  }

  public static Setting integer(String property, int defaultValue, String description) {
    return new Setting(property, Integer.class, Integer.toString(defaultValue), description);
  }

  public static Setting millis(String property, long defaultValue, String description) {
    return new Setting(property, Long.class, Long.toString(defaultValue), description);
  }
}
