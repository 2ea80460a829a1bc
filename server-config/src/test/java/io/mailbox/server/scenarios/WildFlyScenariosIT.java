package io.mailbox.server.scenarios;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The scenarios on WildFly: a server directory of its own (port offset 300) configured by
 * server-config/wildfly/mailbox.cli and given the EAR by server-config/wildfly/wildfly.sh.
 */
class WildFlyScenariosIT extends DeploymentScenarios {
  private static final String SCRIPT = "server-config/wildfly/wildfly.sh";
  private static final int PORT_OFFSET = 300;
  private static Map<String, String> settings;
  private static Deployment deployment;

  @BeforeAll
  static void start() throws Exception {
    settings =
        Map.of(
            "MAILBOX_DATA", ServerScript.freshData("wildfly").toString(),
            "MAILBOX_PORT_OFFSET", Integer.toString(PORT_OFFSET));
    ServerScript.run(SCRIPT, settings, 10, "start");
    deployment =
        new Deployment(
            "WildFly",
            URI.create("http://localhost:" + (8080 + PORT_OFFSET)),
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
