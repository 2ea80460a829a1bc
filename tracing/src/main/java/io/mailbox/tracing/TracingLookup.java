package io.mailbox.tracing;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Finds the application's tracing once: OpenTelemetry when its API is visible to this jar and the
 * application's CDI container provides an {@code OpenTelemetry} bean (MicroProfile Telemetry),
 * {@link MessageTracing#NONE} otherwise. The answer is kept per application (this jar is loaded per
 * application); a failed CDI lookup is tried again after {@link #RETRY_MILLIS}, since a call made
 * while the application is still starting may fail where a later one succeeds.
 */
final class TracingLookup {
  private static final Logger LOG = Logger.getLogger(TracingLookup.class.getName());
  private static final String API_CLASS = "io.opentelemetry.api.OpenTelemetry";
  static final long RETRY_MILLIS = 10_000;

  private static volatile MessageTracing found;
  private static volatile long retryAfter;

  private TracingLookup() {}

  static MessageTracing current() {
    MessageTracing tracing = found;
    if (tracing != null) {
      return tracing;
    }
    if (System.currentTimeMillis() < retryAfter) {
      return MessageTracing.NONE;
    }
    if (!apiVisible()) {
      found = MessageTracing.NONE; // never there: the server has no OpenTelemetry for us
      LOG.fine("No OpenTelemetry API visible to the application: messages are not traced");
      return MessageTracing.NONE;
    }
    try {
      tracing = OpenTelemetryTracing.fromApplication();
    } catch (RuntimeException | LinkageError e) {
      LOG.log(Level.FINE, "No OpenTelemetry bean yet: messages are not traced for now", e);
      tracing = null;
    }
    if (tracing == null) {
      retryAfter = System.currentTimeMillis() + RETRY_MILLIS;
      return MessageTracing.NONE;
    }
    found = tracing;
    return tracing;
  }

  private static boolean apiVisible() {
    try {
      Class.forName(API_CLASS, false, TracingLookup.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
