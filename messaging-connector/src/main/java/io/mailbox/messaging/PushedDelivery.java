package io.mailbox.messaging;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.RetriableDeliveryException;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A copy the transport pushed to a {@code delivery=push} channel, settled through the stage the
 * subscription handed back to the kernel: handled completes it, unhandled fails it retriably (the
 * transport hands the copy out again: RabbitMQ's retry queue, a nak), discard fails it for good (a
 * dead letter where enabled). No lease: the transport holds the copy until then.
 */
final class PushedDelivery implements Delivery {
  private final MailAddress address;
  private final MailMessage message;
  private final CompletableFuture<Void> settled = new CompletableFuture<>();

  PushedDelivery(MailAddress address, MailMessage message) {
    this.address = address;
    this.message = message;
  }

  /** What the kernel waits for. */
  CompletableFuture<Void> settled() {
    return settled;
  }

  @Override
  public MailMessage message() {
    return message;
  }

  @Override
  public MailAddress address() {
    return address;
  }

  @Override
  public String key() {
    return message.sendId().orElse("");
  }

  @Override
  public Optional<String> leaseId() {
    return Optional.empty();
  }

  @Override
  public Optional<Instant> leaseExpiresAt() {
    return Optional.empty();
  }

  /** True the first time: a copy settles once. */
  @Override
  public boolean settle(Disposition disposition) {
    if (Disposition.HANDLED.equals(disposition)) {
      return settled.complete(null);
    }
    if (Disposition.UNHANDLED.equals(disposition)) {
      return settled.completeExceptionally(
          new RetriableDeliveryException("the channel's handler did not handle it (nack)"));
    }
    return settled.completeExceptionally(
        new IllegalStateException("the channel gave up on it (" + disposition + ")"));
  }
}
