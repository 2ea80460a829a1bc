package io.mailbox.connector.provider.nats;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.PublishBound;
import io.nats.client.JetStream;
import io.nats.client.JetStreamApiException;
import io.nats.client.PublishOptions;
import io.nats.client.api.PublishAck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Publishes copies through JetStream and waits for the stream's acknowledgements, all of a batch at
 * once, within the publish bound. A timeout fails with {@code MBX-2009} naming the address and the
 * bound, and says it is not proof of loss (the server may still store the message).
 */
final class NatsPublisher {
  private final Supplier<JetStream> jetStream;
  private final String stream;
  private final Duration bound;
  private final boolean deduplicateByMessageId;
  private final PublishOptions plain; // the options of a post without a de-duplication id

  NatsPublisher(Supplier<JetStream> jetStream, String stream, Duration bound, boolean byMessageId) {
    this.jetStream = jetStream;
    this.stream = stream;
    this.bound = bound;
    this.deduplicateByMessageId = byMessageId;
    this.plain = PublishOptions.builder().expectedStream(stream).streamTimeout(bound).build();
  }

  /**
   * Publishes {@code copies[i]} to {@code subjects[i]}; returns once the stream stored them all.
   */
  void publishAll(List<MailAddress> addresses, List<String> subjects, List<MailMessage> copies) {
    JetStream js = jetStream.get();
    List<CompletableFuture<PublishAck>> acks = new ArrayList<>(copies.size());
    for (int i = 0; i < copies.size(); i++) {
      MailMessage copy = copies.get(i);
      String dedupe = NatsMessages.deduplicationId(copy, deduplicateByMessageId);
      PublishOptions options =
          dedupe == null
              ? plain
              : PublishOptions.builder()
                  .expectedStream(stream)
                  .streamTimeout(bound)
                  .messageId(dedupe)
                  .build();
      acks.add(
          js.publishAsync(
              subjects.get(i), NatsMessages.headers(copy), NatsMessages.body(copy), options));
    }
    long deadline = System.nanoTime() + bound.toNanos();
    for (int i = 0; i < acks.size(); i++) {
      await(acks.get(i), addresses.get(i), deadline);
    }
  }

  /** The post may or may not be stored: the caller must not assume either. */
  private static MailboxException unknownOutcome(MailAddress address, String why, Throwable e) {
    return new MailboxException(
        ErrorCode.CONNECTION_UNAVAILABLE,
        "NATS did not confirm a post to "
            + address
            + " ("
            + why
            + "). This is not proof of loss: the stream may have stored it, so posting again can"
            + " duplicate it.",
        e);
  }

  private void await(CompletableFuture<PublishAck> ack, MailAddress address, long deadline) {
    try {
      ack.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw PublishBound.exceeded(address, bound, "natsPublishTimeoutMillis", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof TimeoutException) {
        throw PublishBound.exceeded(address, bound, "natsPublishTimeoutMillis", cause);
      }
      if (cause instanceof JetStreamApiException api) {
        throw new MailboxException(
            ErrorCode.CONNECTION_UNAVAILABLE,
            "NATS refused a post to "
                + address
                + " ("
                + api.getErrorCode()
                + "/"
                + api.getApiErrorCode()
                + "); nothing was stored.",
            cause);
      }
      throw unknownOutcome(address, cause.getClass().getSimpleName(), cause);
    } catch (java.util.concurrent.CancellationException e) {
      throw unknownOutcome(address, "the connection was lost", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MailboxException(
          ErrorCode.CONNECTION_UNAVAILABLE,
          "Interrupted while NATS stored a post to " + address + " (it may still be stored).",
          e);
    }
  }
}
