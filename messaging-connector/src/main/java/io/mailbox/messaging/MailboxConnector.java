package io.mailbox.messaging;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.ServerShutdown;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.concurrent.ContextService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.event.Observes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.spi.Connector;
import org.eclipse.microprofile.reactive.messaging.spi.IncomingConnectorFactory;
import org.eclipse.microprofile.reactive.messaging.spi.OutgoingConnectorFactory;
import org.eclipse.microprofile.reactive.streams.operators.PublisherBuilder;
import org.eclipse.microprofile.reactive.streams.operators.ReactiveStreams;
import org.eclipse.microprofile.reactive.streams.operators.SubscriberBuilder;

/**
 * The {@code mailbox} connector: {@code mp.messaging.incoming.<ch>.connector=mailbox} reads an
 * address, {@code mp.messaging.outgoing.<ch>.connector=mailbox} writes one. Channel attributes:
 * {@link ChannelSettings}. Threads come from the server's default managed scheduled executor.
 */
@ApplicationScoped
@Connector(MailboxConnector.NAME)
public class MailboxConnector implements IncomingConnectorFactory, OutgoingConnectorFactory {
  /** The connector name used in {@code mp.messaging.*.connector}. */
  public static final String NAME = "mailbox";

  private static final String DEFAULT_EXECUTOR = "java:comp/DefaultManagedScheduledExecutorService";

  /**
   * MicroProfile Config key: the JNDI name of the executor, when the default is not bound where the
   * channels are built (WildFly builds them without java:comp:
   * java:jboss/ee/concurrency/scheduler/default).
   */
  public static final String EXECUTOR_PROPERTY = "mailbox.executor";

  private static final Logger LOG = Logger.getLogger(MailboxConnector.class.getName());

  // Looked up (not @Resource-injected: Payara cannot resolve that in a WEB-INF/lib bean) when the
  // first channel is built, on the deployment thread where java:comp is bound.
  private volatile ScheduledExecutorService executor;

  private final Map<String, MailboxConnectionFactory> factories = new ConcurrentHashMap<>();

  // Set once the application starts stopping: failures from then on are the shutdown's, not the
  // messages' (measured: a SIGTERM under load dead-lettered an order the processor was handling).
  private final AtomicBoolean stopping = new AtomicBoolean();

  @jakarta.annotation.PostConstruct
  void watchTheServersStop() {
    ServerShutdown.watch();
  }

  void applicationStopping(@Observes @BeforeDestroyed(ApplicationScoped.class) Object event) {
    stopping.set(true);
  }

  @PreDestroy
  void destroyed() {
    stopping.set(true);
  }

  /**
   * Whether failures now are the shutdown's: the application's CDI container is stopping, or the
   * server's stop has begun at all. The second comes first: a SIGTERM makes the server stop its
   * applications one by one, and a handler can fail on a half-stopped part before this
   * application's own stop is announced (measured: 4 invoices dead-lettered at their first round in
   * QuickStartCrashIT's SIGTERM round).
   */
  private boolean stopping() {
    return stopping.get() || ServerShutdown.inProgress();
  }

  @Override
  public PublisherBuilder<? extends Message<?>> getPublisherBuilder(Config config) {
    ChannelSettings settings = ChannelSettings.from(config);
    LOG.info(() -> "Incoming channel " + settings.channel() + " reads " + settings.address());
    resolveEarly(settings.connectionFactory());
    return ReactiveStreams.fromPublisher(
        new MailboxPublisher(
            settings,
            () -> factory(settings.connectionFactory()),
            executor(),
            this::stopping,
            applicationContext()));
  }

  @Override
  public SubscriberBuilder<? extends Message<?>, Void> getSubscriberBuilder(Config config) {
    ChannelSettings settings = ChannelSettings.from(config);
    LOG.info(() -> "Outgoing channel " + settings.channel() + " writes " + settings.address());
    resolveEarly(settings.connectionFactory());
    MailboxSender sender = new MailboxSender(settings, () -> factory(settings.connectionFactory()));
    return ReactiveStreams.<Message<?>>builder()
        .flatMapCompletionStage(
            // A stage redeemed with null fails a Reactive Streams stream: pass the message on.
            message -> sender.send(message).thenApply(ignored -> message))
        .ignore();
  }

  private ScheduledExecutorService executor() {
    if (executor == null) {
      synchronized (this) {
        if (executor == null) {
          executor = lookupExecutor();
        }
      }
    }
    return executor;
  }

  /**
   * Runs a task in the context of the thread that deploys the channel (this application's class
   * loader, naming and security context). A pushed channel is woken up on the provider's thread,
   * whose context the managed executor would otherwise capture: the handler would then run where
   * the application's configuration and {@code java:comp} cannot be found (measured on Payara
   * Micro: an {@code @Inboxed} channel's round 2 failed with MBX-2004). Outside a server (no {@code
   * ContextService}) tasks run as they are.
   */
  private static Consumer<Runnable> applicationContext() {
    try {
      ContextService contexts =
          (ContextService) new InitialContext().lookup("java:comp/DefaultContextService");
      return contexts.contextualConsumer(Runnable::run);
    } catch (NamingException | RuntimeException | LinkageError outsideAServer) {
      return Runnable::run; // no Jakarta Concurrency here (a CDI SE process)
    }
  }

  private static ScheduledExecutorService lookupExecutor() {
    String name =
        ConfigProvider.getConfig()
            .getOptionalValue(EXECUTOR_PROPERTY, String.class)
            .orElse(DEFAULT_EXECUTOR);
    try {
      return (ScheduledExecutorService) new InitialContext().lookup(name);
    } catch (NamingException e) {
      throw new MailboxException(
          ErrorCode.CONNECTION_UNAVAILABLE,
          "The platform's "
              + name
              + " is not available to the mailbox connector (set "
              + EXECUTOR_PROPERTY
              + ").",
          e);
    }
  }

  /**
   * Looks the factory up now, on the deploying thread, which has the application's naming context:
   * an application-scoped name ({@code java:app/...}, Payara Server) cannot be resolved later from
   * a pool thread without it. Found once, the factory is cached; if it is not bound yet, the
   * channel keeps looking it up when it needs it (and reports the failure there).
   */
  private void resolveEarly(String jndiName) {
    try {
      factory(jndiName);
    } catch (MailboxException notYet) {
      LOG.fine(() -> "Connection factory " + jndiName + " not resolved at channel creation");
    }
  }

  private MailboxConnectionFactory factory(String jndiName) {
    return factories.computeIfAbsent(jndiName, MailboxConnectionFactory::lookup);
  }
}
