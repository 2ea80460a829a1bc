package io.mailbox.connector.api;

/**
 * Implemented by an application exception that knows whether the failure is worth retrying (an
 * upstream answering 503 or 504, a reset connection). {@link Disposition#of(Throwable)} asks it.
 */
public interface Retriable {
  boolean isRetriable();
}
