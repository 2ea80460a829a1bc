package io.mailbox.ejb.testsupport;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.eclipse.microprofile.config.spi.Converter;

/** Just enough of a MicroProfile Config for the settings' tests: text values from a map. */
public record MapConfig(Map<String, String> values, Iterable<String> names) implements Config {

  public MapConfig(Map<String, String> values) {
    this(values, values.keySet());
  }

  /**
   * Values found when asked for by name, but listed as {@code names}: as MicroProfile Config lists
   * environment variables (by their own names, not the dotted keys they answer to).
   */
  public static MapConfig listingOnly(Map<String, String> values, Iterable<String> names) {
    return new MapConfig(values, names);
  }

  @Override
  public <T> Optional<T> getOptionalValue(String name, Class<T> type) {
    Function<String, Object> convert = type == Boolean.class ? Boolean::valueOf : text -> text;
    return Optional.ofNullable(values.get(name)).map(convert).map(type::cast);
  }

  @Override
  public <T> T getValue(String name, Class<T> type) {
    return getOptionalValue(name, type).orElseThrow();
  }

  @Override
  public ConfigValue getConfigValue(String name) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Iterable<String> getPropertyNames() {
    return names;
  }

  @Override
  public Iterable<ConfigSource> getConfigSources() {
    return java.util.List.of();
  }

  @Override
  public <T> Optional<Converter<T>> getConverter(Class<T> type) {
    return Optional.empty();
  }

  @Override
  public <T> T unwrap(Class<T> type) {
    throw new UnsupportedOperationException();
  }
}
