package io.mailbox.server.scenarios;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The scenarios on Payara Server: a domain of its own (port base 28200) created, configured and
 * given the EAR by server-config/payara-server/payara-server.sh.
 */
class PayaraServerScenariosIT extends DeploymentScenarios {
  private static final String SCRIPT = "server-config/payara-server/payara-server.sh";
  private static final int PORT_BASE = 28200;
  private static Map<String, String> settings;
  private static Deployment deployment;

  @BeforeAll
  static void start() throws Exception {
    settings =
        Map.of(
            "MAILBOX_DATA", ServerScript.freshData("payara-server").toString(),
            "MAILBOX_PORT_BASE", Integer.toString(PORT_BASE));
    ServerScript.run(SCRIPT, settings, 10, "start");
    deployment =
        new Deployment(
            "Payara Server",
            URI.create("http://localhost:" + (PORT_BASE + 80)),
            ServerScript.OPERATOR,
            ServerScript.PASSWORD);
  }

  @AfterAll
  static void stop() throws Exception {
    if (settings != null) {
      ServerScript.run(SCRIPT, settings, 2, "stop");
    }
  }

  @Override
  Deployment deployment() {
    return deployment;
  }
}
