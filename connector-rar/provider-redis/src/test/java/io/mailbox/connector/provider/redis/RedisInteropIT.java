package io.mailbox.connector.provider.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.kernel.DeadLetterPolicy;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.testsupport.Eventually;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.resps.StreamEntry;

/**
 * A plain Jedis client beside the provider on the machine's server: a plain XADD is read through
 * the provider (its fields normalized, its entry id as the message id), a post is read by XRANGE
 * (fields as docs/providers.md says), a discarded message is found by XRANGE in {@code
 * <stream>.dead.<group>} with its fields, source id and delivery count while the source is
 * acknowledged, and a plain entry without a body is dead-lettered at once.
 */
class RedisInteropIT {
  private final String prefix = "interop-" + UUID.randomUUID().toString().substring(0, 8);
  private final RedisSettings settings =
      RedisSettings.defaults().withUrl(RedisServer.url()).withKeyPrefix(prefix);
  private final MailAddress orders = MailAddress.parse("redis://orders@shop/placed");
  private final String stream = prefix + ":{orders@shop/placed}";
  private MailboxProvider provider;
  private Jedis plain;

  @BeforeEach
  void start() {
    provider =
        MailboxProvider.of(new RedisProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
    provider.enableDeadLetterQueue(DeadLetterPolicy.defaults());
    plain = RedisServer.plain();
  }

  @AfterEach
  void stop() {
    provider.stop(false);
    plain.close();
    RedisServer.deleteKeys(prefix);
  }

  @Test
  void aPlainXaddIsReadWithItsFieldsNormalized() {
    assertThat(provider.fetch(orders, FetchOptions.autoAck())).isEmpty(); // the group exists now
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("body", "{\"n\":1}");
    fields.put("tenant", "eu-" + "w".repeat(2_000)); // cut at 1,024 characters
    fields.put("x".repeat(200), "a name too long to carry");
    fields.put("mbx-send-id", "forged");
    StreamEntryID id = plain.xadd(stream, StreamEntryID.NEW_ENTRY, fields);

    List<Delivery> got = new ArrayList<>();
    Eventually.await(
        "the plain entry",
        Duration.ofSeconds(10),
        () -> got.addAll(provider.fetch(orders, FetchOptions.leased())) || !got.isEmpty());

    MailMessage message = got.get(0).message();
    assertThat(message.body()).isEqualTo("{\"n\":1}");
    assertThat(message.id()).isEqualTo(id.toString());
    assertThat(message.sendId()).isPresent().get().isNotEqualTo("forged");
    assertThat(message.header("tenant")).get().asString().hasSize(1_024).startsWith("eu-w");
    assertThat(message.headers()).doesNotContainKey("x".repeat(200));
    assertThat(message.header(StreamEntries.ENTRY_ID)).contains(id.toString());
    assertThat(provider.status(orders).extensions()).containsEntry("redis.droppedFields", 2L);
    assertThat(got.get(0).ack()).isTrue();
    assertThat(plain.xpending(stream, "mailbox").getTotal()).isZero();
  }

  @Test
  void aPostIsReadByXrangeWithTheDocumentedFields() {
    provider.post(
        MailMessage.to(orders)
            .id("order-7")
            .body("{\"total\":12}")
            .header("ordering-key", "customer-3")
            .header("deduplication-id", "order-7-v1")
            .header("body", "a header named body")
            .meta("tenant", "eu")
            .build());

    List<StreamEntry> entries = plain.xrange(stream, "-", "+");

    assertThat(entries).hasSize(1);
    Map<String, String> fields = entries.get(0).getFields();
    assertThat(fields)
        .containsEntry("body", "{\"total\":12}")
        .containsEntry("mbx-message-id", "order-7")
        .containsEntry("ordering-key", "customer-3")
        .containsEntry("deduplication-id", "order-7-v1")
        .containsEntry("mbx-header-body", "a header named body")
        .containsEntry("mbx-meta-tenant", "eu")
        .containsEntry("mbx-producer", "mailbox")
        .containsKey(SystemHeaders.SEND_ID);
    MailMessage read = provider.fetch(orders, FetchOptions.autoAck()).get(0).message();
    assertThat(read.header("body")).contains("a header named body");
    assertThat(read.meta()).containsEntry("tenant", "eu");
  }

  @Test
  void aDiscardedMessageIsInTheDeadLetterStreamWithItsSourceIdBeforeTheSourceIsAcknowledged() {
    provider.post(MailMessage.to(orders).id("poison").body("{}").header("app", "kept").build());
    Delivery delivery = provider.fetch(orders, FetchOptions.leased()).get(0);
    String sourceId = delivery.message().header(StreamEntries.ENTRY_ID).orElseThrow();

    assertThat(delivery.settle(Disposition.DISCARD)).isTrue();

    List<StreamEntry> dead = plain.xrange(stream + ".dead.mailbox", "-", "+");
    assertThat(dead).hasSize(1);
    assertThat(dead.get(0).getFields())
        .containsEntry("body", "{}")
        .containsEntry("app", "kept")
        .containsEntry("mbx-message-id", "poison")
        .containsEntry(StreamEntries.SOURCE_ID, sourceId)
        .containsEntry(SystemHeaders.DEAD_LETTER_ROUND, "1")
        .containsKey(SystemHeaders.DEAD_LETTER_REASON);
    assertThat(plain.xpending(stream, "mailbox").getTotal()).as("the source").isZero();
    MailAddress deadTopic = provider.deadLetterTopic(orders).orElseThrow();
    assertThat(provider.fetch(deadTopic, FetchOptions.autoAck()))
        .extracting(d -> d.message().id())
        .containsExactly("poison");
  }

  @Test
  void aPlainEntryWithoutABodyIsDeadLetteredAtOnce() {
    assertThat(provider.fetch(orders, FetchOptions.autoAck())).isEmpty();
    plain.xadd(stream, StreamEntryID.NEW_ENTRY, Map.of("data", "not where we look"));

    assertThat(provider.fetch(orders, FetchOptions.leased())).isEmpty();

    List<StreamEntry> dead = plain.xrange(stream + ".dead.mailbox", "-", "+");
    assertThat(dead).hasSize(1);
    assertThat(dead.get(0).getFields())
        .containsEntry(SystemHeaders.DEAD_LETTER_REASON, "missing-body")
        .containsEntry("data", "not where we look");
    assertThat(plain.xpending(stream, "mailbox").getTotal()).isZero();
  }
}
