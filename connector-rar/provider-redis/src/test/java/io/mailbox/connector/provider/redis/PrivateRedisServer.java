package io.mailbox.connector.provider.redis;

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
 * A Redis server of a test's own (the machine's {@code redis-server} binary on a free loopback
 * port, its files in a temporary folder), for what must not touch the shared server: killing it
 * with SIGKILL and starting it again. {@link #withAppendOnlyFile} keeps an AOF fsynced at every
 * write ({@code appendfsync always}), what Redis promises survives a crash; {@link
 * #withoutPersistence} is how the machine's server runs (a restart loses everything).
 */
public final class PrivateRedisServer implements AutoCloseable {
  private static final String BINARY = "/usr/bin/redis-server";

  private final int port;
  private final Path dir;
  private final boolean appendOnly;
  private Process process;

  private PrivateRedisServer(boolean appendOnly) throws IOException {
    this.port = freePort();
    this.dir = Files.createTempDirectory("mailbox-redis-");
    this.appendOnly = appendOnly;
  }

  public static PrivateRedisServer withAppendOnlyFile() throws Exception {
    PrivateRedisServer server = new PrivateRedisServer(true);
    server.start();
    return server;
  }

  public static PrivateRedisServer withoutPersistence() throws Exception {
    PrivateRedisServer server = new PrivateRedisServer(false);
    server.start();
    return server;
  }

  public String url() {
    return "redis://127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  public void start() throws Exception {
    start(List.of());
  }

  /** Starts it again, asking clients for {@code password} ({@code requirepass}). */
  public void startWithPassword(String password) throws Exception {
    start(List.of("--requirepass", password));
  }

  private void start(List<String> extra) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                BINARY,
                "--bind",
                "127.0.0.1",
                "--port",
                Integer.toString(port),
                "--dir",
                dir.toString(),
                "--save",
                "",
                "--logfile",
                dir.resolve("redis.log").toString()));
    if (appendOnly) {
      command.addAll(List.of("--appendonly", "yes", "--appendfsync", "always"));
    } else {
      command.addAll(List.of("--appendonly", "no"));
    }
    command.addAll(extra);
    process = new ProcessBuilder(command).redirectErrorStream(true).start();
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline) {
      try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), port)) {
        return;
      } catch (IOException notYet) {
        Thread.sleep(50);
      }
    }
    throw new IllegalStateException("redis-server did not listen on " + port);
  }

  /** SIGKILL: no goodbye to its clients, nothing written but what it wrote already. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }

  /** SIGSTOP: the process stays, its connections stay open, nothing answers. */
  public void pause() throws Exception {
    signal("STOP");
  }

  /** SIGCONT after {@link #pause}. */
  public void resume() throws Exception {
    signal("CONT");
  }

  private void signal(String name) throws Exception {
    new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start().waitFor();
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
