package io.mailbox.server.scenarios;

import java.util.Map;

/**
 * The scenarios on Payara Server: a domain of its own (port base 28200) created, configured and
 * given the EAR by server-config/payara-server/payara-server.sh.
 */
class PayaraServerScenariosIT extends DeploymentScenarios {
  private static final int PORT_BASE = 28200;

  @Override
  Deployment start() throws Exception {
    return ServerScript.start(
        "Payara Server",
        "server-config/payara-server/payara-server.sh",
        Map.of(
            "MAILBOX_DATA", ServerScript.freshData("payara-server").toString(),
            "MAILBOX_PORT_BASE", Integer.toString(PORT_BASE)),
        PORT_BASE + 80);
  }
}
