package io.mailbox.server.payaramicro;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The README's start script, run the way a user runs it ({@code start-micro.sh --detach}) on a port
 * and data folder of the test's own; the ITs that drive the product as shipped share it.
 */
final class MicroStartScript {
  /** The server the script started and what the script printed. */
  record Started(long pid, String output) {}

  private MicroStartScript() {}

  /**
   * Starts the server and waits for the script to say it answers; fails the test with the script's
   * output otherwise. {@code environment} adds settings (accounts, users) to the port and folder.
   */
  static Started start(Path repository, int port, Path data, Map<String, String> environment)
      throws Exception {
    Path output = Files.createTempFile("start-micro", ".out");
    ProcessBuilder start =
        new ProcessBuilder(
                "bash",
                repository.resolve("server-config/payara-micro/start-micro.sh").toString(),
                "--detach")
            .redirectErrorStream(true)
            .redirectOutput(output.toFile());
    start.environment().put("MAILBOX_HTTP_PORT", Integer.toString(port));
    start.environment().put("MAILBOX_DATA", data.toString());
    start.environment().putAll(environment);
    Process script = start.start();
    // Its own bound is 240 s, twice when a start meets Payara's deployment race (common.sh).
    boolean finished = script.waitFor(10, TimeUnit.MINUTES);
    String printed = Files.readString(output);
    Path pidFile = data.resolve("payara-micro.pid");
    long pid = Files.exists(pidFile) ? Long.parseLong(Files.readString(pidFile).strip()) : 0;
    assertThat(finished).as("start script returned:\n" + printed).isTrue();
    assertThat(script.exitValue()).as("start script exit code:\n" + printed).isZero();
    return new Started(pid, printed);
  }

  /** Stops a server gracefully (SIGTERM), forcibly after {@code seconds}. */
  static void stop(long pid, long seconds) throws Exception {
    var server = ProcessHandle.of(pid);
    if (server.isPresent()) {
      server.get().destroy();
      try {
        server.get().onExit().get(seconds, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        server.get().destroyForcibly();
      }
    }
  }

  /**
   * Writes the server's thread dump beside its data folder (jcmd) and returns where, so a test that
   * sees the server stuck leaves the evidence behind.
   */
  static Path threadDump(long pid, Path data) {
    Path dump =
        data.resolveSibling(data.getFileName() + "-threads-" + System.currentTimeMillis() + ".txt");
    try {
      Process jcmd =
          new ProcessBuilder("jcmd", Long.toString(pid), "Thread.print", "-l")
              .redirectErrorStream(true)
              .redirectOutput(dump.toFile())
              .start();
      jcmd.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
    } catch (IOException e) {
      System.out.println("No thread dump of " + pid + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return dump;
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  static void deleteRecursively(Path folder) throws IOException {
    if (Files.exists(folder)) {
      try (var files = Files.walk(folder)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
