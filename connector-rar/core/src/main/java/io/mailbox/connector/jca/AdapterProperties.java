package io.mailbox.connector.jca;

import io.mailbox.connector.spi.PublishBound;
import java.beans.IntrospectionException;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;

/**
 * The resource adapter's configuration properties: JavaBean properties, because that is how a
 * server hands {@code ra.xml}'s {@code config-property} values (and its own overrides) to an
 * adapter. Each is declared once — the kernel's in {@link AdapterSettings#DECLARED}, a provider's
 * by its {@link io.mailbox.connector.spi.ProviderFactory} — and {@code AdapterPropertiesTest} fails
 * the build when {@code ra.xml}, these defaults or docs/configuration.md drift from the
 * declarations. A provider that is not shipped with the adapter takes its settings from {@code
 * providerSettings} ({@code name=value;name=value}), since a server cannot add bean properties.
 */
public abstract class AdapterProperties extends BrokerProperties {
  private String enabledProviders = "mem";
  private String memoryScope = "mailbox";
  private String fileRoot = "";
  private String prepareLogDirectory = "";
  private String providerSettings = "";
  private String jdbcDataSource = "jdbc/__default";
  private Integer jdbcMaxDeliveries = 10;
  private Long jdbcTimeToLiveMillis = 0L;
  private Long jdbcDedupeWindowMillis = 0L;
  private Long jdbcSubscriberPollMillis = 1_000L;
  private Long jdbcPublishTimeoutMillis = 15_000L;
  private String amqpUri = "amqp://guest:guest@127.0.0.1:5672/%2F";
  private Integer amqpPrefetch = 250;
  private Long amqpPublishTimeoutMillis = 15_000L;
  private String amqpRetryDelaysMillis = "1000,5000,30000";
  private Integer amqpMaxDeliveries = 10;
  private Integer retryMaxAttempts = 0;
  private Long retryBaseDelayMillis = 1_000L;
  private Long retryMaxDelayMillis = 60_000L;
  private Boolean deadLetterEnabled = Boolean.TRUE;
  private String deadLetterSuffix = "_dlq";
  private Integer deadLetterMaxNesting = 1;
  private Long defaultAckTimeoutMillis = 30_000L;
  private Long leaseSweepIntervalMillis = 5_000L;
  private Long deliverySettleTimeoutMillis = 30_000L;
  private Long publishTimeoutMillis = PublishBound.DEFAULT.toMillis();

  /**
   * The configured text of a property, by name: a bean property of this class, else a key of {@code
   * providerSettings}; {@code null} when neither has it.
   */
  String configured(String property) {
    Method read = READERS.get(property);
    if (read == null) {
      return providerSettingsMap().get(property);
    }
    try {
      Object value = read.invoke(this);
      return value == null ? null : value.toString();
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("Cannot read adapter property " + property, e);
    }
  }

  // The bean properties' getters, by name, looked up once: introspecting at every read made the
  // settings fuzz test's 10,000 tries take 24 s.
  private static final Map<String, Method> READERS = readers();

  private static Map<String, Method> readers() {
    try {
      Map<String, Method> readers = new HashMap<>();
      for (PropertyDescriptor bean :
          Introspector.getBeanInfo(AdapterProperties.class, Object.class)
              .getPropertyDescriptors()) {
        if (bean.getReadMethod() != null) {
          readers.put(bean.getName(), bean.getReadMethod());
        }
      }
      return Map.copyOf(readers);
    } catch (IntrospectionException e) {
      throw new IllegalStateException("Cannot read the adapter's properties", e);
    }
  }

  /** {@code providerSettings} as a map; a ';' inside a value is written '\\;'. */
  Map<String, String> providerSettingsMap() {
    Map<String, String> values = new HashMap<>();
    String text = providerSettings == null ? "" : providerSettings;
    for (String pair : text.split("(?<!\\\\);")) {
      if (pair.isBlank()) {
        continue;
      }
      int equals = pair.indexOf('=');
      if (equals <= 0) {
        throw io.mailbox.connector.spi.ProviderSettings.invalid(
            "providerSettings", "must be name=value pairs separated by ';'");
      }
      values.put(pair.substring(0, equals).strip(), pair.substring(equals + 1).replace("\\;", ";"));
    }
    return values;
  }

  public String getEnabledProviders() {
    return enabledProviders;
  }

  public void setEnabledProviders(String enabledProviders) {
    this.enabledProviders = enabledProviders;
  }

  public String getMemoryScope() {
    return memoryScope;
  }

  public void setMemoryScope(String memoryScope) {
    this.memoryScope = memoryScope;
  }

  public Integer getJdbcMaxDeliveries() {
    return jdbcMaxDeliveries;
  }

  public void setJdbcMaxDeliveries(Integer jdbcMaxDeliveries) {
    this.jdbcMaxDeliveries = jdbcMaxDeliveries;
  }

  public Long getJdbcDedupeWindowMillis() {
    return jdbcDedupeWindowMillis;
  }

  public void setJdbcDedupeWindowMillis(Long jdbcDedupeWindowMillis) {
    this.jdbcDedupeWindowMillis = jdbcDedupeWindowMillis;
  }

  public Long getJdbcSubscriberPollMillis() {
    return jdbcSubscriberPollMillis;
  }

  public void setJdbcSubscriberPollMillis(Long jdbcSubscriberPollMillis) {
    this.jdbcSubscriberPollMillis = jdbcSubscriberPollMillis;
  }

  public String getAmqpUri() {
    return amqpUri;
  }

  public void setAmqpUri(String amqpUri) {
    this.amqpUri = amqpUri;
  }

  public Integer getAmqpPrefetch() {
    return amqpPrefetch;
  }

  public void setAmqpPrefetch(Integer amqpPrefetch) {
    this.amqpPrefetch = amqpPrefetch;
  }

  public Long getAmqpPublishTimeoutMillis() {
    return amqpPublishTimeoutMillis;
  }

  public void setAmqpPublishTimeoutMillis(Long amqpPublishTimeoutMillis) {
    this.amqpPublishTimeoutMillis = amqpPublishTimeoutMillis;
  }

  public String getAmqpRetryDelaysMillis() {
    return amqpRetryDelaysMillis;
  }

  public void setAmqpRetryDelaysMillis(String amqpRetryDelaysMillis) {
    this.amqpRetryDelaysMillis = amqpRetryDelaysMillis;
  }

  public Integer getAmqpMaxDeliveries() {
    return amqpMaxDeliveries;
  }

  public void setAmqpMaxDeliveries(Integer amqpMaxDeliveries) {
    this.amqpMaxDeliveries = amqpMaxDeliveries;
  }

  public Long getJdbcPublishTimeoutMillis() {
    return jdbcPublishTimeoutMillis;
  }

  public void setJdbcPublishTimeoutMillis(Long jdbcPublishTimeoutMillis) {
    this.jdbcPublishTimeoutMillis = jdbcPublishTimeoutMillis;
  }

  public Long getJdbcTimeToLiveMillis() {
    return jdbcTimeToLiveMillis;
  }

  public void setJdbcTimeToLiveMillis(Long jdbcTimeToLiveMillis) {
    this.jdbcTimeToLiveMillis = jdbcTimeToLiveMillis;
  }

  public String getJdbcDataSource() {
    return jdbcDataSource;
  }

  public void setJdbcDataSource(String jdbcDataSource) {
    this.jdbcDataSource = jdbcDataSource;
  }

  public String getPrepareLogDirectory() {
    return prepareLogDirectory;
  }

  public void setPrepareLogDirectory(String prepareLogDirectory) {
    this.prepareLogDirectory = prepareLogDirectory;
  }

  public String getFileRoot() {
    return fileRoot;
  }

  public void setFileRoot(String fileRoot) {
    this.fileRoot = fileRoot;
  }

  public Integer getRetryMaxAttempts() {
    return retryMaxAttempts;
  }

  public void setRetryMaxAttempts(Integer retryMaxAttempts) {
    this.retryMaxAttempts = retryMaxAttempts;
  }

  public Long getRetryBaseDelayMillis() {
    return retryBaseDelayMillis;
  }

  public void setRetryBaseDelayMillis(Long retryBaseDelayMillis) {
    this.retryBaseDelayMillis = retryBaseDelayMillis;
  }

  public Long getRetryMaxDelayMillis() {
    return retryMaxDelayMillis;
  }

  public void setRetryMaxDelayMillis(Long retryMaxDelayMillis) {
    this.retryMaxDelayMillis = retryMaxDelayMillis;
  }

  public Boolean getDeadLetterEnabled() {
    return deadLetterEnabled;
  }

  public void setDeadLetterEnabled(Boolean deadLetterEnabled) {
    this.deadLetterEnabled = deadLetterEnabled;
  }

  public String getDeadLetterSuffix() {
    return deadLetterSuffix;
  }

  public void setDeadLetterSuffix(String deadLetterSuffix) {
    this.deadLetterSuffix = deadLetterSuffix;
  }

  public Integer getDeadLetterMaxNesting() {
    return deadLetterMaxNesting;
  }

  public void setDeadLetterMaxNesting(Integer deadLetterMaxNesting) {
    this.deadLetterMaxNesting = deadLetterMaxNesting;
  }

  public Long getDefaultAckTimeoutMillis() {
    return defaultAckTimeoutMillis;
  }

  public void setDefaultAckTimeoutMillis(Long defaultAckTimeoutMillis) {
    this.defaultAckTimeoutMillis = defaultAckTimeoutMillis;
  }

  public Long getLeaseSweepIntervalMillis() {
    return leaseSweepIntervalMillis;
  }

  public void setLeaseSweepIntervalMillis(Long leaseSweepIntervalMillis) {
    this.leaseSweepIntervalMillis = leaseSweepIntervalMillis;
  }

  public Long getDeliverySettleTimeoutMillis() {
    return deliverySettleTimeoutMillis;
  }

  public void setDeliverySettleTimeoutMillis(Long deliverySettleTimeoutMillis) {
    this.deliverySettleTimeoutMillis = deliverySettleTimeoutMillis;
  }

  public Long getPublishTimeoutMillis() {
    return publishTimeoutMillis;
  }

  public void setPublishTimeoutMillis(Long publishTimeoutMillis) {
    this.publishTimeoutMillis = publishTimeoutMillis;
  }

  public String getProviderSettings() {
    return providerSettings;
  }

  public void setProviderSettings(String providerSettings) {
    this.providerSettings = providerSettings;
  }
}
