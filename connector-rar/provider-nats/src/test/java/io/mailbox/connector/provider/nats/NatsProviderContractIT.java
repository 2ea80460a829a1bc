package io.mailbox.connector.provider.nats;

import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.spi.Transport;
import io.mailbox.connector.tck.ProviderContract;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;

/**
 * The conformance kit against the machine's NATS server (JetStream on 127.0.0.1:4222), each test on
 * a stream of its own, created by the provider.
 */
class NatsProviderContractIT extends ProviderContract {
  /** This run's streams only: another build on the same server keeps its own. */
  private static final String RUN = "KIT_" + UUID.randomUUID().toString().substring(0, 6) + "_";

  @AfterAll
  static void deleteTheKitsStreams() throws Exception {
    NatsServer.deleteStreams(RUN);
  }

  @Override
  protected Transport newTransport() {
    String run = UUID.randomUUID().toString().substring(0, 8);
    NatsSettings settings =
        NatsSettings.defaults()
            .withUrl(NatsServer.url())
            .withCreatedStream(RUN + run, "kit-" + run);
    return new NatsProvider(settings, Clock.systemUTC(), new ExecutorScheduler());
  }

  @Override
  protected Duration eventually() {
    return Duration.ofSeconds(10);
  }

  private static final Duration BOUND = Duration.ofSeconds(1);

  /** The publish-bound case on a server of its own, paused with SIGSTOP (others keep theirs). */
  @Override
  protected Optional<Unanswering> unanswering() throws Exception {
    PrivateNatsServer server = PrivateNatsServer.withJetStream();
    NatsSettings settings =
        NatsSettings.defaults()
            .withUrl(server.url())
            .withCreatedStream("MAILBOX", "mailbox")
            .withPublishTimeout(BOUND);
    MailboxProvider bounded =
        MailboxProvider.of(new NatsProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    bounded.start();
    return Optional.of(
        Unanswering.of(bounded, BOUND, server::pause, server::resume, server::close));
  }
}
