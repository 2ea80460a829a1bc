package io.mailbox.connector.jca;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.jca.inbound.EndpointActivation;
import io.mailbox.connector.jca.inbound.MailboxActivationSpec;
import io.mailbox.connector.kernel.Mailbox;
import io.mailbox.connector.provider.mem.MemoryProvider;
import io.mailbox.connector.spi.MailboxProvider;
import jakarta.resource.NotSupportedException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterInternalException;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.logging.Logger;
import javax.transaction.xa.XAResource;

/**
 * Starts the mailbox kernel with the adapter and stops it (every subscription first) with the
 * adapter. Configuration properties are declared in {@code META-INF/ra.xml} with their defaults.
 */
public class MailboxResourceAdapter implements ResourceAdapter {
  private static final Logger LOG = Logger.getLogger(MailboxResourceAdapter.class.getName());

  /** Providers the adapter can start, by scheme. Brokers are added as their providers land. */
  static final Map<String, Supplier<MailboxProvider>> AVAILABLE_PROVIDERS =
      Map.of(MemoryProvider.SCHEME, MemoryProvider::isolated);

  private String enabledProviders = MemoryProvider.SCHEME;

  private volatile Mailbox kernel;
  private volatile BootstrapContext bootstrapContext;
  private final Map<MessageEndpointFactory, EndpointActivation> activations =
      new ConcurrentHashMap<>();

  @Override
  public void start(BootstrapContext context) throws ResourceAdapterInternalException {
    Mailbox mailbox = new Mailbox();
    for (String scheme : enabledSchemes()) {
      Supplier<MailboxProvider> provider = AVAILABLE_PROVIDERS.get(scheme);
      if (provider == null) {
        throw new ResourceAdapterInternalException(
            ErrorCode.UNKNOWN_SCHEME.code()
                + " enabledProviders names '"
                + scheme
                + "', which this adapter does not ship; available: "
                + AVAILABLE_PROVIDERS.keySet());
      }
      mailbox.register(provider.get());
    }
    mailbox.start();
    this.bootstrapContext = context;
    this.kernel = mailbox;
    LOG.info(() -> "Mailbox resource adapter started with providers " + mailbox.schemes());
  }

  @Override
  public void stop() {
    activations.values().forEach(EndpointActivation::stop);
    activations.clear();
    Mailbox mailbox = kernel;
    kernel = null;
    if (mailbox != null) {
      mailbox.stop(false);
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
        new EndpointActivation(kernel(), bootstrapContext.getWorkManager(), factory, mailboxSpec);
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
    // Posts held in a transaction live only in memory until commit: nothing to recover yet.
    return new XAResource[0];
  }

  /** Comma-separated schemes of the providers to start (config property, default {@code mem}). */
  public String getEnabledProviders() {
    return enabledProviders;
  }

  public void setEnabledProviders(String enabledProviders) {
    this.enabledProviders = enabledProviders;
  }

  List<String> enabledSchemes() {
    return Arrays.stream(enabledProviders.split(","))
        .map(String::strip)
        .filter(s -> !s.isEmpty())
        .map(s -> s.toLowerCase(java.util.Locale.ROOT))
        .distinct()
        .toList();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof MailboxResourceAdapter that
        && Objects.equals(enabledProviders, that.enabledProviders);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(enabledProviders);
  }
}
