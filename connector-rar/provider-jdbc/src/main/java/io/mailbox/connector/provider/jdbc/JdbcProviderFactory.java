package io.mailbox.connector.provider.jdbc;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.ProviderFactory;
import io.mailbox.connector.spi.ProviderSettings;
import io.mailbox.connector.spi.Scheduler;
import io.mailbox.connector.spi.Setting;
import io.mailbox.connector.spi.Transport;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/** Builds {@code jdbc:} for the adapter (found through {@code META-INF/services}). */
public final class JdbcProviderFactory
    implements ProviderFactory<JdbcProviderFactory.Configuration> {
  static final Setting DATA_SOURCE =
      Setting.text(
          "jdbcDataSource",
          "jdbc/__default",
          "JNDI name of the jdbc: provider's DataSource (a server resource); its MBX_QUEUE table is"
              + " created when missing.");
  static final Setting MAX_DELIVERIES =
      Setting.integer(
          "jdbcMaxDeliveries",
          10,
          "jdbc: leased deliveries a copy gets; the one that would exceed it dead-letters the copy"
              + " (reason max-deliveries). 0 = no cap.");
  static final Setting DEDUPE_WINDOW =
      Setting.millis(
          "jdbcDedupeWindowMillis",
          0,
          "jdbc: a post whose de-duplication id (else message id) its address saw within this"
              + " many ms is collapsed. 0 = off.");
  static final Setting SUBSCRIBER_POLL =
      Setting.millis(
          "jdbcSubscriberPollMillis",
          1_000,
          "jdbc: how often, in ms, rows nobody pushed are handed to the address's subscribers."
              + " Must be positive.");
  static final Setting TIME_TO_LIVE =
      Setting.millis(
          "jdbcTimeToLiveMillis",
          0,
          "jdbc: how long a copy may wait after it was sent before it is dead-lettered instead of"
              + " handed out (reason ttl), in ms. 0 = forever.");

  static final Setting PUBLISH_TIMEOUT =
      Setting.millis(
          "jdbcPublishTimeoutMillis",
          15_000,
          "jdbc: how long a post waits for its INSERT, in ms (JDBC's query timeout: whole seconds,"
              + " rounded up); then MBX-2009, not proof of loss. 0 = as long as the driver waits.");

  /** The checked settings. */
  public record Configuration(
      String dataSource,
      int maxDeliveries,
      Duration dedupeWindow,
      Duration subscriberPoll,
      Duration timeToLive,
      Duration publishTimeout) {}

  @Override
  public String scheme() {
    return JdbcProvider.SCHEME;
  }

  @Override
  public List<Setting> settings() {
    return List.of(
        DATA_SOURCE, MAX_DELIVERIES, DEDUPE_WINDOW, SUBSCRIBER_POLL, TIME_TO_LIVE, PUBLISH_TIMEOUT);
  }

  @Override
  public Configuration configure(ProviderSettings settings) {
    String dataSource = settings.text(DATA_SOURCE);
    if (dataSource == null || dataSource.isBlank()) {
      throw ProviderSettings.invalid(DATA_SOURCE, "must name a DataSource");
    }
    return new Configuration(
        dataSource.strip(),
        settings.integer(MAX_DELIVERIES, 0),
        settings.millis(DEDUPE_WINDOW),
        settings.positiveMillis(SUBSCRIBER_POLL),
        settings.millis(TIME_TO_LIVE),
        settings.millis(PUBLISH_TIMEOUT));
  }

  @Override
  public Transport create(Configuration configuration, Scheduler scheduler) {
    return new JdbcProvider(
            lookup(configuration.dataSource()),
            Clock.systemUTC(),
            scheduler,
            true,
            configuration.maxDeliveries(),
            configuration.timeToLive())
        .withDedupeWindow(configuration.dedupeWindow())
        .withSubscriberPoll(configuration.subscriberPoll())
        .withPublishTimeout(configuration.publishTimeout());
  }

  private static DataSource lookup(String jndiName) {
    try {
      return (DataSource) new InitialContext().lookup(jndiName);
    } catch (NamingException e) {
      throw new MailboxException(
          ErrorCode.NOT_STARTED,
          "The jdbc: provider's DataSource '"
              + jndiName
              + "' is not bound; set the adapter property jdbcDataSource.");
    }
  }
}
