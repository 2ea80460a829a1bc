package io.mailbox.server.payaramicro;

import io.mailbox.connector.provider.nats.PrivateNatsServer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The quick start with its events on NATS JetStream (issue 16), on a NATS server of the test's own
 * killed with SIGKILL mid-traffic and started again on its store ({@link BrokerChannelsRun}).
 */
class NatsChannelsIT {

  @Test
  void theQuickStartsChannelsAndRelayRunOnNatsAndSurviveItsServerKilled() throws Exception {
    try (PrivateNatsServer nats = PrivateNatsServer.withJetStream()) {
      BrokerChannelsRun.run(
          "nats",
          new BrokerChannelsRun.Broker() {
            @Override
            public void kill() throws Exception {
              nats.kill();
            }

            @Override
            public void start() throws Exception {
              nats.start();
            }
          },
          Map.of("MAILBOX_NATS_URL", nats.url(), "MAILBOX_NATS_CREATE_STREAM", "true"));
    }
  }
}
