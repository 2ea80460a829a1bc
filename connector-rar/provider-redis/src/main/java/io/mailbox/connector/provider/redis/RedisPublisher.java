package io.mailbox.connector.provider.redis;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.PublishBound;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.XAddParams;

/**
 * Appends entries with XADD, all of a batch in one pipeline, each answered within the publish bound
 * (the pooled connections' socket timeout). An entry is only added to an existing stream ({@code
 * NOMKSTREAM}): a stream that is gone (Redis restarted without its data) gets its consumer group
 * again first, so no entry lands where no group will read it. {@code redisMaxLength} trims each
 * stream to about that many entries ({@code MAXLEN ~}).
 */
final class RedisPublisher {
  private final RedisLink link;
  private final ConsumerGroups groups;
  private final StreamKeys keys;
  private final Duration bound;
  private final long maxLength;

  RedisPublisher(
      RedisLink link, ConsumerGroups groups, StreamKeys keys, Duration bound, long maxLength) {
    this.link = link;
    this.groups = groups;
    this.keys = keys;
    this.bound = bound;
    this.maxLength = maxLength;
  }

  /** One entry to append: the address it stands for, its stream and its fields. */
  record Entry(MailAddress address, String key, Map<String, String> fields) {}

  /** Appends {@code copy} to the stream of {@code topic} (a dead letter when not its own). */
  void send(MailAddress topic, MailMessage copy) {
    boolean deadLetter = !topic.equals(copy.to());
    append(List.of(new Entry(topic, keys.stream(topic), StreamEntries.fields(copy, deadLetter))));
  }

  /** Appends copies posted together, each to its own address's stream, in one pipeline. */
  void sendAll(List<MailMessage> copies) {
    List<Entry> entries = new ArrayList<>(copies.size());
    MailAddress previous = null;
    String key = null;
    for (MailMessage copy : copies) {
      if (!copy.to().equals(previous)) { // a batch is mostly one address: one mapping
        previous = copy.to();
        key = keys.stream(previous);
      }
      entries.add(new Entry(previous, key, StreamEntries.fields(copy, false)));
    }
    append(entries);
  }

  /** Appends every entry, in order; returns once Redis stored them all. */
  private void append(List<Entry> entries) {
    String ensured = null;
    for (Entry entry : entries) {
      if (!entry.key().equals(ensured)) { // a batch is mostly one stream: one lookup
        groups.ensure(entry.key());
        ensured = entry.key();
      }
    }
    List<StreamEntryID> ids = xadd(entries);
    for (int i = 0; i < entries.size(); i++) {
      if (ids.get(i) == null) { // the stream is gone since its group was made here
        Entry missing = entries.get(i);
        groups.forget(missing.key());
        groups.ensure(missing.key());
        if (xadd(List.of(missing)).get(0) == null) {
          throw new MailboxException(
              ErrorCode.CONNECTION_UNAVAILABLE,
              "Redis dropped stream " + missing.key() + " while a post to it was stored; retry.");
        }
      }
    }
  }

  private List<StreamEntryID> xadd(List<Entry> entries) {
    XAddParams params = XAddParams.xAddParams().noMkStream();
    if (maxLength > 0) {
      params.maxLen(maxLength).approximateTrimming();
    }
    MailAddress first = entries.get(0).address();
    try {
      return link.call(
          "store a post to " + first,
          redis -> {
            if (entries.size() == 1) {
              Entry only = entries.get(0);
              List<StreamEntryID> one = new ArrayList<>(1);
              one.add(redis.xadd(only.key(), params, only.fields()));
              return one;
            }
            List<Response<StreamEntryID>> answers = new ArrayList<>(entries.size());
            try (AbstractPipeline pipeline = redis.pipelined()) {
              for (Entry entry : entries) {
                answers.add(pipeline.xadd(entry.key(), params, entry.fields()));
              }
              pipeline.sync();
            }
            List<StreamEntryID> ids = new ArrayList<>(answers.size());
            answers.forEach(answer -> ids.add(answer.get()));
            return ids;
          });
    } catch (MailboxException e) {
      if (e.getCause() instanceof JedisDataException refused) {
        throw new MailboxException(
            ErrorCode.CONNECTION_UNAVAILABLE,
            "Redis refused a post to "
                + first
                + " ("
                + RedisLink.errorWord(refused)
                + "); nothing was stored.",
            refused);
      }
      throw unconfirmed(first, e.getCause());
    }
  }

  /** The post may or may not be stored: the caller must not assume either. */
  private MailboxException unconfirmed(MailAddress address, Throwable cause) {
    if (PublishBound.isSocketTimeout(cause)) {
      return PublishBound.exceeded(address, bound, "redisPublishTimeoutMillis", cause);
    }
    return new MailboxException(
        ErrorCode.CONNECTION_UNAVAILABLE,
        "Redis did not confirm a post to "
            + address
            + " ("
            + (cause == null ? "not connected" : cause.getClass().getSimpleName())
            + "). This is not proof of loss: the stream may have stored it, so posting again can"
            + " duplicate it.",
        cause);
  }
}
