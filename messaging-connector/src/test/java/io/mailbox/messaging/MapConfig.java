package io.mailbox.messaging;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.eclipse.microprofile.config.spi.Converter;

/** The connector's view of MicroProfile Config: values already converted to their types. */
record MapConfig(Map<String, Object> values) implements Config {
  @Override
  public <T> Optional<T> getOptionalValue(String name, Class<T> type) {
    return Optional.ofNullable(values.get(name)).map(type::cast);
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
    return values.keySet();
  }

  @Override
  public Iterable<ConfigSource> getConfigSources() {
    return List.of();
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
