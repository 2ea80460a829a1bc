package io.mailbox.server.scenarios;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The scenarios on Payara Micro: the rar and the wars, started by the README's script. */
class PayaraMicroScenariosIT extends DeploymentScenarios {

  @Override
  Deployment start() throws Exception {
    Path data = ServerScript.freshData("payara-micro");
    int port = ServerScript.freePort();
    // The server keeps running after the script returns (--detach): it is stopped by its pid.
    AutoCloseable stop = () -> stopByPid(data.resolve("payara-micro.pid"));
    try {
      ServerScript.run(
          "server-config/payara-micro/start-micro.sh",
          Map.of("MAILBOX_HTTP_PORT", Integer.toString(port), "MAILBOX_DATA", data.toString()),
          6,
          "--detach");
    } catch (Throwable failed) {
      stop.close();
      throw failed;
    }
    return new Deployment("Payara Micro", URI.create("http://localhost:" + port), stop);
  }

  private static void stopByPid(Path pidFile) throws Exception {
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
}
