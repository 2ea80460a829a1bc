package io.mailbox.server.scenarios;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The scenarios on Payara Micro: the rar and the wars, started by the README's script. */
class PayaraMicroScenariosIT extends DeploymentScenarios {
  private static Deployment deployment;
  private static Path data;

  @BeforeAll
  static void start() throws Exception {
    data = ServerScript.freshData("payara-micro");
    int port = ServerScript.freePort();
    ServerScript.run(
        "server-config/payara-micro/start-micro.sh",
        Map.of("MAILBOX_HTTP_PORT", Integer.toString(port), "MAILBOX_DATA", data.toString()),
        6,
        "--detach");
    deployment =
        new Deployment(
            "Payara Micro",
            URI.create("http://localhost:" + port),
            ServerScript.OPERATOR,
            ServerScript.PASSWORD);
  }

  @AfterAll
  static void stop() throws Exception {
    Path pidFile = data.resolve("payara-micro.pid");
    if (Files.exists(pidFile)) {
      long pid = Long.parseLong(Files.readString(pidFile).strip());
      ProcessHandle.of(pid)
          .ifPresent(
              server -> {
                server.destroy();
                server.onExit().orTimeout(60, TimeUnit.SECONDS).join();
              });
    }
  }

  @Override
  Deployment deployment() {
    return deployment;
  }
}
