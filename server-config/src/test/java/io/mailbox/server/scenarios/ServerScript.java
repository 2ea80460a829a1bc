package io.mailbox.server.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Runs a server script of server-config/ the way a user does, with a fresh data folder. */
final class ServerScript {
  static final Path REPOSITORY =
      Path.of(System.getProperty("mailbox.repository")).toAbsolutePath().normalize();
  static final String OPERATOR = "scenario-operator";
  static final String PASSWORD = UUID.randomUUID().toString();

  private ServerScript() {}

  /** A new, empty data folder for one server under the build's scenario data. */
  static Path freshData(String server) throws IOException {
    Path data =
        Path.of(System.getProperty("mailbox.testData"))
            .toAbsolutePath()
            .resolveSibling("scenario-data")
            .resolve(server);
    if (Files.exists(data)) {
      try (Stream<Path> files = Files.walk(data)) {
        files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      }
    }
    Files.createDirectories(data);
    return data;
  }

  /**
   * Runs {@code script args} with the operator account and {@code settings} in its environment;
   * fails with the script's output unless it ends with exit code 0 within the time given.
   */
  static String run(String script, Map<String, String> settings, int minutes, String... args)
      throws Exception {
    Path output = Files.createTempFile("server-script", ".out");
    String[] command = new String[args.length + 2];
    command[0] = "bash";
    command[1] = REPOSITORY.resolve(script).toString();
    System.arraycopy(args, 0, command, 2, args.length);
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
    builder.environment().put("MAILBOX_CONSOLE_USERNAME", OPERATOR);
    builder.environment().put("MAILBOX_CONSOLE_PASSWORD", PASSWORD);
    builder.environment().putAll(settings);
    Process process = builder.start();
    boolean finished = process.waitFor(minutes, TimeUnit.MINUTES);
    if (!finished) {
      process.destroyForcibly();
    }
    String text = Files.readString(output);
    assertThat(finished).as(script + " did not finish:\n" + text).isTrue();
    assertThat(process.exitValue()).as(script + " failed:\n" + text).isZero();
    return text;
  }

  /**
   * Starts a server with {@code script start} and the settings given (stopped with {@code script
   * stop}, also when the start fails half-way), answering HTTP on {@code httpPort}.
   */
  static DeploymentScenarios.Deployment start(
      String server, String script, Map<String, String> settings, int httpPort) throws Exception {
    AutoCloseable stop = () -> run(script, settings, 2, "stop");
    try {
      run(script, settings, 10, "start");
    } catch (Throwable failed) {
      try {
        stop.close();
      } catch (Throwable alsoFailed) {
        failed.addSuppressed(alsoFailed);
      }
      throw failed;
    }
    return new DeploymentScenarios.Deployment(
        server, URI.create("http://localhost:" + httpPort), stop);
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
