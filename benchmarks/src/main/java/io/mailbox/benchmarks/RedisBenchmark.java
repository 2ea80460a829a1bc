package io.mailbox.benchmarks;

import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.provider.redis.RedisProvider;
import io.mailbox.connector.provider.redis.RedisSettings;
import io.mailbox.connector.spi.ExecutorScheduler;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.params.XAddParams;
import redis.clients.jedis.params.XReadGroupParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.resps.StreamEntry;

/**
 * {@code redis:} against raw Jedis on the same server, side by side in one run, with the settings
 * the provider uses:
 *
 * <ol>
 *   <li><b>publish</b>: N messages in batches of B — raw: B XADDs ({@code NOMKSTREAM}) with the
 *       fields the provider writes (body, send id, send time, message id, producer mark) in one
 *       pipeline, read back; provider: {@code postAll} of B;
 *   <li><b>consume</b>: N entries already stored — raw: a consumer group read on a connection of
 *       its own, {@code XREADGROUP COUNT 256 BLOCK} (the provider's block time), each entry
 *       decoded, one XACK per read batch (as the provider does); provider: a subscription, each
 *       message handled and acknowledged;
 *   <li><b>relay</b>: R outbox rows on embedded H2 relayed to {@code redis:} vs raw XADDs of R
 *       messages one at a time.
 * </ol>
 *
 * Untimed warm-up rounds ({@link ProviderBench#warmUpRounds}), then the measured rounds; medians
 * and ratios printed. Arguments: {@code [messages] [batch] [relayRows] [rounds] [url]} (default
 * 10000 100 2000 5 and the machine's server). The run uses a key prefix of its own and deletes its
 * keys at the end.
 */
public final class RedisBenchmark {
  private RedisBenchmark() {}

  public static void main(String[] args) {
    ProviderBench.runThenExit(() -> run(args));
  }

  private static void run(String[] args) throws Exception {
    int messages = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int batch = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    int relayRows = args.length > 2 ? Integer.parseInt(args[2]) : 2_000;
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 5;
    String url = args.length > 4 ? args[4] : "redis://127.0.0.1:6379";
    String prefix = "bench-" + UUID.randomUUID().toString().substring(0, 8);
    RedisSettings settings = RedisSettings.defaults().withUrl(url).withKeyPrefix(prefix);
    MailboxProvider provider =
        MailboxProvider.of(new RedisProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
    EntityManagerFactory database = Persistence.createEntityManagerFactory("mailbox-bench");
    try (RedisClient raw = RedisClient.create(URI.create(url))) {
      System.out.printf(
          "redis: on %s: %d messages in batches of %d, %d relay rows, key prefix %s%n",
          url, messages, batch, relayRows, prefix);
      double[][] rates = new double[6][rounds];
      int warmUps = ProviderBench.warmUpRounds(messages);
      for (int round = -warmUps; round < rounds; round++) { // below 0: untimed warm-up (JIT)
        MailAddress publish = address("publish", round);
        MailAddress consumeRaw = address("consume-raw", round);
        MailAddress consumeOurs = address("consume-ours", round);
        MailAddress relayTo = address("relay", round);
        MailAddress rawOneByOneTo = address("raw-one", round);
        String publishTarget = stream(provider, publish);
        double[] publishes =
            ProviderBench.alternately(
                round,
                () -> ProviderBench.publish(provider, publish, messages, batch, ProviderBench.BODY),
                () -> rawPublish(raw, publishTarget, messages, batch));
        double ourPublish = publishes[0];
        double rawPublish = publishes[1];

        String rawStream = stream(provider, consumeRaw);
        raw.xgroupCreate(rawStream, "raw", StreamEntryID.XGROUP_LAST_ENTRY, false);
        ProviderBench.publish(provider, consumeRaw, messages, batch, ProviderBench.BODY);
        double rawConsume = rawConsume(url, rawStream, messages, settings);
        ProviderBench.publish(provider, consumeOurs, messages, batch, ProviderBench.BODY);
        double ourConsume = ProviderBench.consume(provider, consumeOurs, messages);

        double rawOneByOne = rawPublish(raw, stream(provider, rawOneByOneTo), relayRows, 1);
        double relayed = new OutboxRelayRig(database, provider, relayTo).relay(relayRows);
        if (round < 0) {
          continue;
        }
        double[] measured = {rawPublish, ourPublish, rawConsume, ourConsume, rawOneByOne, relayed};
        for (int i = 0; i < measured.length; i++) {
          rates[i][round] = measured[i];
        }
        System.out.printf(
            "round %d: publish raw %,.0f/s ours %,.0f/s | consume raw %,.0f/s ours %,.0f/s |"
                + " relay %,.0f rows/s, raw one-by-one %,.0f/s%n",
            round + 1, rawPublish, ourPublish, rawConsume, ourConsume, relayed, rawOneByOne);
      }
      BrokerBenchReport.print(rates, "one-by-one XADD");
      deleteKeys(raw, prefix);
    } finally {
      provider.stop(false);
      database.close();
    }
  }

  // Names end in the round + 100: warm-up rounds are numbered below 0.
  private static MailAddress address(String what, int round) {
    return MailAddress.parse("redis://bench@redis/" + what + "-" + (round + 100));
  }

  /** The stream the provider maps {@code address} to (its group made by a first post). */
  private static String stream(MailboxProvider provider, MailAddress address) {
    provider.post(MailMessage.to(address).body("{}").build());
    provider.fetch(address, FetchOptions.autoAck());
    return (String) provider.status(address).extensions().get("redis.stream");
  }

  private static double rawPublish(RedisClient raw, String stream, int count, int batch) {
    XAddParams params = XAddParams.xAddParams().noMkStream();
    long start = System.nanoTime();
    for (int sent = 0; sent < count; ) {
      int n = Math.min(batch, count - sent);
      if (n == 1) {
        raw.xadd(stream, params, fields(sent));
      } else {
        List<redis.clients.jedis.Response<StreamEntryID>> ids = new ArrayList<>(n);
        try (AbstractPipeline pipeline = raw.pipelined()) {
          for (int i = 0; i < n; i++) {
            ids.add(pipeline.xadd(stream, params, fields(sent + i)));
          }
          pipeline.sync();
        }
        ids.forEach(redis.clients.jedis.Response::get);
      }
      sent += n;
    }
    return count / OutboxBench.seconds(start);
  }

  private static Map<String, String> fields(int number) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("body", ProviderBench.BODY);
    fields.put(SystemHeaders.SEND_ID, UUID.randomUUID().toString());
    fields.put(SystemHeaders.SENT_AT, Instant.now().toString());
    fields.put("mbx-message-id", "m-" + number);
    fields.put("mbx-producer", "mailbox");
    return fields;
  }

  private static double rawConsume(String url, String stream, int count, RedisSettings settings) {
    long start = System.nanoTime();
    int seen = 0;
    try (Jedis connection = new Jedis(URI.create(url))) {
      XReadGroupParams read =
          XReadGroupParams.xReadGroupParams()
              .count(256)
              .block((int) settings.blockTime().toMillis());
      while (seen < count) {
        var answer =
            connection.xreadGroup(
                "raw", "raw-1", read, Map.of(stream, StreamEntryID.XREADGROUP_UNDELIVERED_ENTRY));
        if (answer == null) {
          continue;
        }
        List<StreamEntryID> ids = new ArrayList<>();
        for (var entries : answer) {
          for (StreamEntry entry : entries.getValue()) {
            new String(entry.getFields().get("body")); // the same decoding work as ours
            ids.add(entry.getID());
          }
        }
        if (!ids.isEmpty()) {
          connection.xack(stream, "raw", ids.toArray(StreamEntryID[]::new));
          seen += ids.size();
        }
      }
    }
    return count / OutboxBench.seconds(start);
  }

  private static void deleteKeys(RedisClient raw, String prefix) {
    String cursor = ScanParams.SCAN_POINTER_START;
    do {
      ScanResult<String> page = raw.scan(cursor, new ScanParams().match(prefix + "*").count(500));
      if (!page.getResult().isEmpty()) {
        raw.del(page.getResult().toArray(String[]::new));
      }
      cursor = page.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
  }
}
