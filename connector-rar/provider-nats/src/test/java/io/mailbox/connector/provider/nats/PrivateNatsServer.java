package io.mailbox.connector.provider.nats;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A NATS server of a test's own (the machine's {@code nats-server} binary on a free loopback port,
 * its JetStream store in a temporary folder), for what must not touch the shared server: killing it
 * with SIGKILL and starting it again on the same store, or running it without JetStream.
 */
public final class PrivateNatsServer implements AutoCloseable {
  private static final String BINARY = "/usr/sbin/nats-server";

  private final int port;
  private final Path store;
  private final boolean jetStream;
  private Process process;

  private PrivateNatsServer(boolean jetStream) throws IOException {
    this.port = freePort();
    this.store = Files.createTempDirectory("mailbox-nats-");
    this.jetStream = jetStream;
  }

  public static PrivateNatsServer withJetStream() throws Exception {
    PrivateNatsServer server = new PrivateNatsServer(true);
    server.start();
    return server;
  }

  public static PrivateNatsServer withoutJetStream() throws Exception {
    PrivateNatsServer server = new PrivateNatsServer(false);
    server.start();
    return server;
  }

  public String url() {
    return "nats://127.0.0.1:" + port;
  }

  public void start() throws Exception {
    List<String> command =
        new ArrayList<>(List.of(BINARY, "-a", "127.0.0.1", "-p", Integer.toString(port)));
    if (jetStream) {
      command.addAll(List.of("-js", "-sd", store.toString()));
    }
    process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(store.resolveSibling(store.getFileName() + ".log").toFile())
            .start();
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline) {
      try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), port)) {
        return;
      } catch (IOException notYet) {
        Thread.sleep(50);
      }
    }
    throw new IllegalStateException("nats-server did not listen on " + port);
  }

  /** SIGSTOP: the process stays, its connections stay open, nothing answers. */
  public void pause() throws Exception {
    new ProcessBuilder("kill", "-STOP", Long.toString(process.pid())).start().waitFor();
  }

  /** SIGCONT after {@link #pause}. */
  public void resume() throws Exception {
    new ProcessBuilder("kill", "-CONT", Long.toString(process.pid())).start().waitFor();
  }

  /** SIGKILL: no goodbye to its clients, nothing flushed but what it wrote already. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }

  /** Deletes its JetStream store (while it is down): it comes back without streams or consumers. */
  public void loseStore() throws IOException {
    try (var files = Files.walk(store)) {
      files
          .sorted(java.util.Comparator.reverseOrder())
          .filter(path -> !path.equals(store))
          .forEach(path -> path.toFile().delete());
    }
  }

  @Override
  public void close() throws Exception {
    if (process != null && process.isAlive()) {
      kill();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
