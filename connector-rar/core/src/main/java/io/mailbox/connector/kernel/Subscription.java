package io.mailbox.connector.kernel;

import io.mailbox.connector.api.MailAddress;

/** An established subscription; returned only once the provider has registered it. */
public interface Subscription extends AutoCloseable {
  MailAddress address();

  /** False once unsubscribed or once its provider stopped. */
  boolean isActive();

  /** Stops further deliveries. A delivery already running settles on its own. Idempotent. */
  void unsubscribe();

  @Override
  default void close() {
    unsubscribe();
  }
}
