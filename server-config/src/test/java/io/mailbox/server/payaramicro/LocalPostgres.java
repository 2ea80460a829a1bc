package io.mailbox.server.payaramicro;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The machine's PostgreSQL (127.0.0.1:5432, trust authentication), stopped and started the way
 * {@code .ci/run} starts it ({@code pg_ctlcluster --skip-systemctl-redirect <version> main}).
 */
final class LocalPostgres {
  static final String HOST_PORT = "127.0.0.1:5432";

  private LocalPostgres() {}

  /** A fresh, empty database {@code name} (dropped first if it exists). */
  static String freshDatabase(String name) throws Exception {
    try (Connection admin =
            DriverManager.getConnection(
                "jdbc:postgresql://" + HOST_PORT + "/postgres", "postgres", "");
        Statement s = admin.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
      s.execute("CREATE DATABASE " + name);
    }
    return "jdbc:postgresql://" + HOST_PORT + "/" + name;
  }

  /** Stops the server at once (fast shutdown: open sessions are ended). */
  static void stop() throws Exception {
    cluster("stop", "-m", "fast");
  }

  /** Starts the server and waits until it takes connections. */
  static void start() throws Exception {
    cluster("start");
    Instant deadline = Instant.now().plus(Duration.ofSeconds(90));
    while (!isUp()) {
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError("PostgreSQL did not come back within 90 s");
      }
      Thread.sleep(250);
    }
  }

  static boolean isUp() {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", 5432), 1000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static void cluster(String... action) throws Exception {
    String version;
    try (Stream<Path> versions = Files.list(Path.of("/etc/postgresql"))) {
      version = versions.findFirst().orElseThrow().getFileName().toString();
    }
    var command = new java.util.ArrayList<String>();
    command.add("pg_ctlcluster");
    command.add("--skip-systemctl-redirect");
    command.add(version);
    command.add("main");
    command.addAll(java.util.List.of(action));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new AssertionError("pg_ctlcluster " + String.join(" ", action) + " failed: " + output);
    }
  }
}
