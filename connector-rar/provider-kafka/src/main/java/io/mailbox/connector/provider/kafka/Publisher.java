package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.PublishBound;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;

/**
 * Writes records and waits, within the publish bound, until Kafka acknowledged every one of them.
 * Records sent together go out as one batch (the producer gathers them). A failure names the
 * address and the bound, and says whether the record may still be stored.
 */
final class Publisher implements AutoCloseable {
  private final KafkaProducer<byte[], byte[]> producer;
  private final Duration bound;

  Publisher(KafkaProducer<byte[], byte[]> producer, Duration bound) {
    this.producer = producer;
    this.bound = bound;
  }

  void publishAll(List<MailAddress> addresses, List<String> topics, List<MailMessage> copies) {
    long deadline = System.nanoTime() + bound.toNanos();
    List<Future<RecordMetadata>> sent = new ArrayList<>(copies.size());
    for (int i = 0; i < copies.size(); i++) {
      try {
        sent.add(producer.send(KafkaRecords.record(topics.get(i), copies.get(i))));
      } catch (RuntimeException e) {
        throw failed(addresses.get(i), e);
      }
    }
    if (sent.size() > 1) {
      // The whole batch is here: send it now rather than after the linger. A caller that posts in
      // rounds (the outbox relay's waves) would otherwise wait the linger once per round. A flush
      // waits for the records sent before it, each bounded by the delivery timeout (the bound).
      producer.flush();
    }
    for (int i = 0; i < sent.size(); i++) {
      try {
        sent.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (ExecutionException e) {
        throw failed(addresses.get(i), e.getCause());
      } catch (TimeoutException e) {
        throw PublishBound.exceeded(addresses.get(i), bound, "kafkaPublishTimeoutMillis", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw failed(addresses.get(i), e);
      }
    }
  }

  private MailboxException failed(MailAddress address, Throwable cause) {
    if (cause instanceof RecordTooLargeException) {
      return new MailboxException(
          ErrorCode.INVALID_MESSAGE,
          "Kafka refused the post to "
              + address
              + ": the record is larger than it accepts"
              + " (max.request.size or the topic's max.message.bytes); it was not stored.",
          cause);
    }
    if (cause instanceof org.apache.kafka.common.errors.TimeoutException) {
      // The producer's own delivery.timeout.ms (the bound too): the same "may still arrive".
      return PublishBound.exceeded(address, bound, "kafkaPublishTimeoutMillis", cause);
    }
    return new MailboxException(
        ErrorCode.CONNECTION_UNAVAILABLE,
        "Kafka did not acknowledge the post to "
            + address
            + " within "
            + bound.toMillis()
            + " ms (kafkaPublishTimeoutMillis; "
            + cause.getClass().getSimpleName()
            + "). This is not proof it was lost: Kafka may still store it, so posting it again"
            + " can duplicate it.",
        cause);
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(5));
  }
}
