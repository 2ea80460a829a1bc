package io.mailbox.connector.api;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether the JVM is shutting down, as applications see it. A SIGTERM starts the server's stop: its
 * applications are stopped one by one while the HTTP listener still takes requests, and a request
 * that reaches a half-stopped application fails in whatever way the part it touches fails (500 in
 * the crash test's SIGTERM round, tens of thousands of times). Once this says "in progress", such
 * failures mean "not now": answer 503 with Retry-After ({@link ShutdownFilter}) and leave
 * deliveries to their leases.
 *
 * <p>A JVM shutdown hook sets the flag; hooks start as soon as the stop begins, before the server
 * stops anything. The class lives with the adapter's classes, which every application shares, so
 * there is one hook per server, not one per application (and none left behind by a redeploy).
 */
public final class ServerShutdown {
  private static final AtomicBoolean IN_PROGRESS = new AtomicBoolean();
  private static final AtomicBoolean WATCHING = new AtomicBoolean();

  private ServerShutdown() {}

  /** Starts watching for the JVM's shutdown (once; later calls do nothing). */
  public static void watch() {
    if (WATCHING.compareAndSet(false, true)) {
      try {
        Runtime.getRuntime()
            .addShutdownHook(new Thread(() -> IN_PROGRESS.set(true), "mailbox-shutdown-flag"));
      } catch (IllegalStateException alreadyShuttingDown) {
        IN_PROGRESS.set(true);
      }
    }
  }

  /** Whether the JVM's shutdown has begun (known once {@link #watch()} was called). */
  public static boolean inProgress() {
    return IN_PROGRESS.get();
  }
}
