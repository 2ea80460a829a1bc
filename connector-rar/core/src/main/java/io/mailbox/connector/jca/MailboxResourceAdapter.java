package io.mailbox.connector.jca;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.jca.inbound.EndpointActivation;
import io.mailbox.connector.jca.inbound.MailboxActivationSpec;
import io.mailbox.connector.jca.outbound.PrepareLog;
import io.mailbox.connector.kernel.Mailbox;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.spi.Scheduler;
import jakarta.resource.NotSupportedException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterInternalException;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import javax.transaction.xa.XAResource;

/**
 * Starts the mailbox kernel with the adapter and stops it with the adapter: endpoints first, then
 * every provider (subscriptions before transports), then the adapter's timer. The providers are the
 * ones installed with it ({@link ProviderFactories}); the settings are the bean properties of
 * {@link AdapterProperties}, checked by {@link AdapterSettings} before anything starts.
 */
public class MailboxResourceAdapter extends AdapterProperties implements ResourceAdapter {
  private static final Logger LOG = Logger.getLogger(MailboxResourceAdapter.class.getName());

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
      MailboxProvider provider = validated.providers().get(scheme).create(timers);
      provider.setRetryPolicy(validated.retryPolicy().orElse(null));
      validated.deadLetterPolicy().ifPresent(provider::enableDeadLetterQueue);
      provider.setDeliverySettleTimeout(validated.deliverySettleTimeout());
      provider.setPublishTimeout(validated.publishTimeout());
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
        ? Duration.ofMillis(getDefaultAckTimeoutMillis())
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

  @Override
  public boolean equals(Object other) {
    return other instanceof MailboxResourceAdapter that
        && Objects.equals(getEnabledProviders(), that.getEnabledProviders())
        && Objects.equals(getRetryMaxAttempts(), that.getRetryMaxAttempts())
        && Objects.equals(getDeadLetterEnabled(), that.getDeadLetterEnabled())
        && Objects.equals(getDeadLetterSuffix(), that.getDeadLetterSuffix())
        && Objects.equals(getDefaultAckTimeoutMillis(), that.getDefaultAckTimeoutMillis());
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        getEnabledProviders(),
        getRetryMaxAttempts(),
        getDeadLetterEnabled(),
        getDeadLetterSuffix());
  }
}
