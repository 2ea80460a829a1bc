package io.mailbox.connector.kernel;

import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.MailMessage;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * A push consumer. It may finish later (on another thread): the delivery is settled when the
 * returned stage completes, by {@link Disposition#of(Throwable)}.
 */
@FunctionalInterface
public interface MailboxSubscriber {
  CompletionStage<Void> deliver(MailMessage message);

  /**
   * Adapts a synchronous consumer: a return is handled, a throw is mapped by {@link
   * Disposition#of}.
   */
  static MailboxSubscriber of(Consumer<MailMessage> consumer) {
    return message -> {
      try {
        consumer.accept(message);
        return CompletableFuture.completedFuture(null);
      } catch (RuntimeException e) {
        return CompletableFuture.failedFuture(e);
      }
    };
  }
}
