package io.mailbox.server.scenarios;

import java.net.URI;
import java.util.Map;

/**
 * The scenarios on WildFly: a server directory of its own (port offset 300) configured by
 * server-config/wildfly/mailbox.cli and given the EAR by server-config/wildfly/wildfly.sh.
 */
class WildFlyScenariosIT extends DeploymentScenarios {
  private static final int PORT_OFFSET = 300;

  @Override
  Deployment start() throws Exception {
    return ServerScript.start(
            "WildFly",
            "server-config/wildfly/wildfly.sh",
            Map.of(
                "MAILBOX_DATA", ServerScript.freshData("wildfly").toString(),
                "MAILBOX_PORT_OFFSET", Integer.toString(PORT_OFFSET)),
            8080 + PORT_OFFSET)
        .asWildFly(URI.create("http://localhost:" + (9990 + PORT_OFFSET)));
  }
}
