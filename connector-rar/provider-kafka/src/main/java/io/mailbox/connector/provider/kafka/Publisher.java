package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.PublishBound;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;

/**
 * Writes records and waits, within the publish bound, until Kafka acknowledged every one of them. A
 * failure names the address and the bound, and says whether the record may still be stored.
 *
 * <p>Two producers: single posts go through one that lingers a few milliseconds, so that posts of
 * concurrent callers share a request; the records of one call ({@code postAll}) go through one that
 * does not linger, since the whole batch is already there: a caller that posts in rounds (the
 * outbox relay's waves) would otherwise wait the linger once per round. (A {@code flush()} would do
 * it too, but it also waits for every other caller's records, without a bound of its own.)
 */
final class Publisher implements AutoCloseable {
  private final KafkaProducer<byte[], byte[]> single;
  private final KafkaProducer<byte[], byte[]> batches;
  private final Duration bound;

  Publisher(KafkaSettings settings) {
    this.single = KafkaClients.producer(settings, "mailbox-producer", KafkaClients.LINGER_MILLIS);
    this.batches = KafkaClients.producer(settings, "mailbox-batch-producer", 0);
    this.bound = settings.publishTimeout();
  }

  /**
   * @param addresses each copy's address
   * @param topicOf the topic of an address, asked once per address of the call
   * @param together the records of one call: sent at once, without the linger
   * @return the addresses posted to
   */
  Set<MailAddress> publishAll(
      List<MailAddress> addresses,
      Function<MailAddress, String> topicOf,
      List<MailMessage> copies,
      boolean together) {
    KafkaProducer<byte[], byte[]> producer = together ? batches : single;
    Map<MailAddress, String> topics = new HashMap<>();
    for (MailAddress address : addresses) {
      topics.computeIfAbsent(address, topicOf);
    }
    long deadline = System.nanoTime() + bound.toNanos();
    List<Future<RecordMetadata>> sent = new ArrayList<>(copies.size());
    for (int i = 0; i < copies.size(); i++) {
      try {
        String topic = topics.get(addresses.get(i));
        sent.add(producer.send(KafkaRecords.record(topic, copies.get(i))));
      } catch (RuntimeException e) {
        throw failed(addresses.get(i), e);
      }
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
    return topics.keySet();
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
    single.close(Duration.ofSeconds(5));
    batches.close(Duration.ofSeconds(5));
  }
}
