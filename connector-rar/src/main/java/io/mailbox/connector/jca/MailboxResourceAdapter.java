package io.mailbox.connector.jca;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.jca.inbound.EndpointActivation;
import io.mailbox.connector.jca.inbound.MailboxActivationSpec;
import io.mailbox.connector.jca.outbound.PrepareLog;
import io.mailbox.connector.kernel.Mailbox;
import io.mailbox.connector.provider.amqp.AmqpProvider;
import io.mailbox.connector.provider.file.FileProvider;
import io.mailbox.connector.provider.jdbc.JdbcProvider;
import io.mailbox.connector.provider.mem.MemoryBus;
import io.mailbox.connector.provider.mem.MemoryProvider;
import io.mailbox.connector.spi.MailboxProvider;
import io.mailbox.connector.spi.Scheduler;
import jakarta.resource.NotSupportedException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterInternalException;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import javax.transaction.xa.XAResource;

/**
 * Starts the mailbox kernel with the adapter and stops it with the adapter: endpoints first, then
 * every provider (subscriptions before transports), then the adapter's timer. Every setting is a
 * bean property declared with its default and description in {@code META-INF/ra.xml}; {@link
 * AdapterSettings} validates them at start.
 */
public class MailboxResourceAdapter implements ResourceAdapter {
  private static final Logger LOG = Logger.getLogger(MailboxResourceAdapter.class.getName());

  /** Providers this adapter ships, by scheme. Brokers are added as their providers land. */
  static final Map<String, ProviderFactory> AVAILABLE_PROVIDERS =
      Map.of(
          AmqpProvider.SCHEME,
          (scheduler, settings) -> new AmqpProvider(settings.amqp(), Clock.systemUTC(), scheduler),
          FileProvider.SCHEME,
          (scheduler, settings) ->
              new FileProvider(settings.fileRoot(), Clock.systemUTC(), scheduler),
          JdbcProvider.SCHEME,
          (scheduler, settings) ->
              new JdbcProvider(
                      lookupDataSource(settings.jdbcDataSource()),
                      Clock.systemUTC(),
                      scheduler,
                      true,
                      settings.jdbcMaxDeliveries(),
                      settings.jdbcTimeToLive())
                  .withDedupeWindow(settings.jdbcDedupeWindow())
                  .withSubscriberPoll(settings.jdbcSubscriberPoll()),
          MemoryProvider.SCHEME,
          (scheduler, settings) ->
              new MemoryProvider(
                  MemoryBus.scope(settings.memoryScope()),
                  Clock.systemUTC(),
                  scheduler,
                  settings.leaseSweepInterval()));

  /** Builds one provider on the adapter's scheduler. */
  @FunctionalInterface
  interface ProviderFactory {
    MailboxProvider create(Scheduler scheduler, AdapterSettings settings);
  }

  // Bean properties: defaults repeat ra.xml so a server that ignores it behaves the same.
  private String enabledProviders = MemoryProvider.SCHEME;
  private String memoryScope = "mailbox";
  private String fileRoot = "";
  private String prepareLogDirectory = "";
  private String jdbcDataSource = "jdbc/__default";
  private Integer jdbcMaxDeliveries = 10;
  private Long jdbcTimeToLiveMillis = 0L;
  private Long jdbcDedupeWindowMillis = 0L;
  private Long jdbcSubscriberPollMillis = 1_000L;
  private String amqpUri = io.mailbox.connector.provider.amqp.AmqpSettings.DEFAULT_URI;
  private Integer amqpPrefetch = 32;
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

  private volatile Mailbox kernel;
  private volatile AdapterSettings settings;
  private volatile WorkManagerScheduler scheduler;
  private volatile PrepareLog prepareLog;
  private volatile BootstrapContext bootstrapContext;
  private final Map<MessageEndpointFactory, EndpointActivation> activations =
      new ConcurrentHashMap<>();

  @Override
  public void start(BootstrapContext context) throws ResourceAdapterInternalException {
    AdapterSettings validated;
    try {
      validated = AdapterSettings.of(this);
    } catch (MailboxException e) {
      throw new ResourceAdapterInternalException(e.getMessage(), e);
    }
    WorkManagerScheduler timers;
    try {
      timers = new WorkManagerScheduler(context);
    } catch (jakarta.resource.spi.UnavailableException e) {
      throw new ResourceAdapterInternalException("The server gave the adapter no timer", e);
    }
    Mailbox mailbox = new Mailbox();
    for (String scheme : validated.enabledProviders()) {
      ProviderFactory factory = AVAILABLE_PROVIDERS.get(scheme);
      if (factory == null) {
        timers.close();
        throw new ResourceAdapterInternalException(
            ErrorCode.UNKNOWN_SCHEME.code()
                + " enabledProviders names '"
                + scheme
                + "', which this adapter does not ship; available: "
                + AVAILABLE_PROVIDERS.keySet());
      }
      MailboxProvider provider = factory.create(timers, validated);
      provider.setRetryPolicy(validated.retryPolicy().orElse(null));
      validated.deadLetterPolicy().ifPresent(provider::enableDeadLetterQueue);
      provider.setDeliverySettleTimeout(validated.deliverySettleTimeout());
      mailbox.register(provider);
    }
    mailbox.start();
    this.bootstrapContext = context;
    this.scheduler = timers;
    this.settings = validated;
    this.kernel = mailbox;
    // After the kernel: the log's retrier delivers committed posts through it.
    this.prepareLog =
        PrepareLog.open(
            validated.prepareLogDirectory(), this::kernel, timers, timers::runToCompletion);
    LOG.info(
        () ->
            "Mailbox resource adapter started with providers "
                + mailbox.schemes()
                + " ("
                + validated
                + ")");
  }

  @Override
  public void stop() {
    activations.values().forEach(EndpointActivation::stop);
    activations.clear();
    PrepareLog log = prepareLog;
    if (log != null) {
      log.close(); // its entries stay for the next start
    }
    Mailbox mailbox = kernel;
    kernel = null;
    if (mailbox != null) {
      mailbox.stop(false);
    }
    WorkManagerScheduler timers = scheduler;
    if (timers != null) {
      timers.close();
    }
    LOG.info("Mailbox resource adapter stopped");
  }

  /**
   * The running kernel.
   *
   * @throws MailboxException with {@link ErrorCode#NOT_STARTED} when the adapter is not running
   */
  public Mailbox kernel() {
    Mailbox mailbox = kernel;
    if (mailbox == null) {
      throw new MailboxException(
          ErrorCode.NOT_STARTED, "The Mailbox resource adapter is not started.");
    }
    return mailbox;
  }

  public boolean isRunning() {
    return kernel != null;
  }

  /** The lease a manual-ack fetch takes when it names none (property defaultAckTimeoutMillis). */
  public Duration defaultAckTimeout() {
    AdapterSettings current = settings;
    return current == null
        ? Duration.ofMillis(defaultAckTimeoutMillis)
        : current.defaultAckTimeout();
  }

  /**
   * Where posts held by a JTA transaction are written when the branch votes yes (property
   * prepareLogDirectory).
   *
   * @throws MailboxException with {@link ErrorCode#NOT_STARTED} when the adapter is not running
   */
  public PrepareLog prepareLog() {
    kernel();
    return prepareLog;
  }

  /** The adapter's scheduler (timers firing onto WorkManager threads). */
  public Scheduler scheduler() {
    kernel();
    return scheduler;
  }

  @Override
  public void endpointActivation(MessageEndpointFactory factory, ActivationSpec spec)
      throws ResourceException {
    if (!(spec instanceof MailboxActivationSpec mailboxSpec)) {
      throw new NotSupportedException(
          ErrorCode.INVALID_ACTIVATION.code()
              + " Unexpected activation spec "
              + spec.getClass().getName());
    }
    mailboxSpec.validate();
    EndpointActivation activation =
        EndpointActivation.create(
            kernel(), bootstrapContext.getWorkManager(), scheduler, factory, mailboxSpec);
    activation.start();
    activations.put(factory, activation);
  }

  @Override
  public void endpointDeactivation(MessageEndpointFactory factory, ActivationSpec spec) {
    EndpointActivation activation = activations.remove(factory);
    if (activation != null) {
      activation.stop();
    }
  }

  @Override
  public XAResource[] getXAResources(ActivationSpec[] specs) {
    // Deliveries to endpoints are not transacted by the adapter. Posts held by a transaction are
    // recovered through the connection factory's XAResource, which reads the prepare log.
    return new XAResource[0];
  }

  // ---- configuration properties (descriptions and defaults: META-INF/ra.xml) ------------------

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

  /**
   * The jdbc: provider's DataSource, by its JNDI name (a server resource: the adapter has no
   * java:comp).
   */
  static javax.sql.DataSource lookupDataSource(String jndiName) {
    try {
      return (javax.sql.DataSource) new javax.naming.InitialContext().lookup(jndiName);
    } catch (javax.naming.NamingException e) {
      throw new MailboxException(
          ErrorCode.NOT_STARTED,
          "The jdbc: provider's DataSource '"
              + jndiName
              + "' is not bound; set the adapter property jdbcDataSource.");
    }
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

  @Override
  public boolean equals(Object other) {
    return other instanceof MailboxResourceAdapter that
        && Objects.equals(enabledProviders, that.enabledProviders)
        && Objects.equals(retryMaxAttempts, that.retryMaxAttempts)
        && Objects.equals(deadLetterEnabled, that.deadLetterEnabled)
        && Objects.equals(deadLetterSuffix, that.deadLetterSuffix)
        && Objects.equals(defaultAckTimeoutMillis, that.defaultAckTimeoutMillis);
  }

  @Override
  public int hashCode() {
    return Objects.hash(enabledProviders, retryMaxAttempts, deadLetterEnabled, deadLetterSuffix);
  }
}
