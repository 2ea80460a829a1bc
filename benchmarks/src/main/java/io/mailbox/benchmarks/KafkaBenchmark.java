package io.mailbox.benchmarks;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.provider.kafka.KafkaBroker;
import io.mailbox.connector.provider.kafka.KafkaProvider;
import io.mailbox.connector.provider.kafka.KafkaSettings;
import io.mailbox.connector.spi.ExecutorScheduler;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * {@code kafka:} against raw {@code kafka-clients} on the same broker and topics, side by side in
 * one run, with the settings the provider uses ({@code acks=all}, idempotence, linger 5 ms for
 * single sends, none for a batch):
 *
 * <ol>
 *   <li><b>publish</b>: N records in batches of B — raw: B {@code send} then wait for every
 *       acknowledgement, with the headers the provider writes (send id, send time, message id,
 *       producer mark: the same bytes on the wire); provider: {@code postAll} of B;
 *   <li><b>consume</b>: N records already in the topic — raw: a consumer in its own group that
 *       polls, decodes each value and commits after each poll (the at-least-once loop a user would
 *       write); provider: a subscription, each record handled and its offset committed as part of
 *       the settled prefix; a second raw baseline also reads every header of each record as text
 *       (the message and send ids a consumer needs to recognize a redelivery; ours reads them);
 *   <li><b>queue consume</b>: N records already in a topic read through a share group — raw: a
 *       {@code KafkaShareConsumer} of its own group (explicit acknowledgements, from the earliest
 *       record) accepting each, on Kafka's defaults (500 a poll); provider: a subscription to a
 *       queue address; both timed from their first record (a new share group takes seconds to
 *       start);
 *   <li><b>relay</b>: R outbox rows on PostgreSQL (or embedded H2) relayed to {@code kafka:}
 *       (claim, acknowledged publish, mark sent) vs raw acknowledged sends of R records one at a
 *       time, and in batches.
 * </ol>
 *
 * Two untimed warm-up rounds, then the measured rounds; medians and ratios printed. Arguments:
 * {@code [messages] [batch] [relayRows] [rounds] [database] [bootstrapServers]} (default 10000 100
 * 2000 5 postgresql, and a single-node broker started in this JVM when no cluster is named — the
 * tests' own).
 */
public final class KafkaBenchmark {

  private KafkaBenchmark() {}

  public static void main(String[] args) {
    ProviderBench.runThenExit(() -> run(args));
  }

  private static void run(String[] args) throws Exception {
    int messages = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int batch = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    int relayRows = args.length > 2 ? Integer.parseInt(args[2]) : 2_000;
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 5;
    String databaseKind = args.length > 4 ? args[4] : "postgresql";
    String servers = args.length > 5 ? args[5] : KafkaBroker.shared().bootstrapServers();
    String run = UUID.randomUUID().toString().substring(0, 8);
    KafkaSettings settings =
        KafkaSettings.defaults()
            .withBootstrapServers(servers)
            .withTopicCreation(1)
            .withQueueAddresses("bench@kafka/queue-*")
            // -Dbench.queueBatch=N: kafkaQueueBatch for the queue comparison (default as shipped).
            .withQueueBatch(
                Integer.getInteger("bench.queueBatch", KafkaSettings.defaults().queueBatch()));
    MailboxProvider provider =
        MailboxProvider.of(new KafkaProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
    OutboxDatabase database = OutboxDatabase.open(databaseKind);
    // As the provider: single sends linger 5 ms, a batch's records go without a linger.
    try (KafkaProducer<byte[], byte[]> raw = rawProducer(servers, 5);
        KafkaProducer<byte[], byte[]> rawBatches = rawProducer(servers, 0)) {
      System.out.printf(
          "kafka: on %s: %d records in batches of %d, %d relay rows on %s, one partition per"
              + " topic%n",
          servers, messages, batch, relayRows, databaseKind);
      double[][] rates = new double[10][rounds];
      for (int round = -2; round < rounds; round++) { // rounds -2 and -1: untimed warm-up (JIT)
        // Fresh topics every round: each consume reads exactly what this round wrote.
        MailAddress publish = address("publish", run, round);
        MailAddress consumeRaw = address("consume-raw", run, round);
        MailAddress consumeOurs = address("consume-ours", run, round);
        MailAddress relayTo = address("relay", run, round);
        MailAddress rawOneByOneTo = address("raw-one", run, round);
        provider.post(MailMessage.to(publish).body("{}").build()); // the topic, for the raw side
        String publishTarget = topic(provider, publish);
        // -Dbench.consumeOnly=true: the consume comparisons alone (no publish, queue or relay one).
        boolean consumeOnly = Boolean.getBoolean("bench.consumeOnly");
        double[] publishes =
            consumeOnly
                ? new double[] {0, 0}
                : ProviderBench.alternately(
                    round,
                    () ->
                        ProviderBench.publish(
                            provider, publish, messages, batch, ProviderBench.BODY),
                    () -> rawPublish(rawBatches, publishTarget, messages, batch));
        double ourPublish = publishes[0];
        double rawPublish = publishes[1];
        // -Dbench.publishOnly=true: the publish comparison alone, nothing else on the broker.
        if (Boolean.getBoolean("bench.publishOnly")) {
          System.out.printf(
              "round %d: publish raw %,.0f/s ours %,.0f/s ratio %.2f%n",
              round, rawPublish, ourPublish, ourPublish / rawPublish);
          continue;
        }

        // -Dbench.queueOnly=true: the queue (share group) comparison alone, the two sides in turn.
        if (Boolean.getBoolean("bench.queueOnly")) {
          double[] queues = compareQueues(provider, servers, run, round, messages, batch);
          System.out.printf(
              "%s: queue consume raw %,.0f/s ours %,.0f/s ratio %.2f%n",
              round < 0 ? "warm-up" : "round " + (round + 1),
              queues[1],
              queues[0],
              queues[0] / queues[1]);
          if (round >= 0) {
            rates[6][round] = queues[1];
            rates[7][round] = queues[0];
          }
          continue;
        }
        MailAddress consumeRawHeaders = address("consume-raw-headers", run, round);
        ProviderBench.publish(provider, consumeRaw, messages, batch, ProviderBench.BODY);
        ProviderBench.publish(provider, consumeRawHeaders, messages, batch, ProviderBench.BODY);
        ProviderBench.publish(provider, consumeOurs, messages, batch, ProviderBench.BODY);
        double rawConsumeWithHeaders =
            RawKafkaConsumers.consume(servers, topic(provider, consumeRawHeaders), messages, true);
        double[] consumes =
            ProviderBench.alternately(
                round,
                () -> ProviderBench.consume(provider, consumeOurs, messages),
                () ->
                    RawKafkaConsumers.consume(
                        servers, topic(provider, consumeRaw), messages, false));
        double ourConsume = consumes[0];
        double rawConsume = consumes[1];
        double ourFirst = ProviderBench.firstRecordMillis;
        if (consumeOnly) {
          System.out.printf(
              "%s %d: consume raw %,.0f/s (reading headers too %,.0f/s) ours %,.0f/s ratio"
                  + " %.2f%n",
              round < 0 ? "warm-up" : "round",
              round < 0 ? round + 3 : round + 1,
              rawConsume,
              rawConsumeWithHeaders,
              ourConsume,
              ourConsume / rawConsume);
          if (round >= 0) {
            rates[2][round] = rawConsume;
            rates[3][round] = ourConsume;
            rates[8][round] = rawConsumeWithHeaders;
          }
          continue;
        }
        double[] queues = compareQueues(provider, servers, run, round, messages, batch);
        double ourQueue = queues[0];
        double rawQueue = queues[1];

        provider.post(MailMessage.to(rawOneByOneTo).body("{}").build()); // creates the topic
        double rawOneByOne = rawPublish(raw, topic(provider, rawOneByOneTo), relayRows, 1);
        // The relay as the server runs it, and finishing each batch before reading the next.
        MailAddress relayOneByOneTo = address("relay-one-batch", run, round);
        provider.post(MailMessage.to(relayOneByOneTo).body("{}").build()); // creates the topic
        double[] relays =
            ProviderBench.alternately(
                round,
                () -> new OutboxRelayRig(database, provider, relayTo).relay(relayRows),
                () ->
                    new OutboxRelayRig(database, provider, relayOneByOneTo, Runnable::run)
                        .relay(relayRows));
        double relayed = relays[0];
        if (round < 0) {
          continue;
        }
        double[] measured = {
          rawPublish,
          ourPublish,
          rawConsume,
          ourConsume,
          rawOneByOne,
          relayed,
          rawQueue,
          ourQueue,
          rawConsumeWithHeaders,
          relays[1]
        };
        for (int i = 0; i < measured.length; i++) {
          rates[i][round] = measured[i];
        }
        System.out.printf(
            "round %d: publish raw %,.0f/s ours %,.0f/s | consume raw %,.0f/s ours %,.0f/s |"
                + " relay %,.0f rows/s, raw one-by-one %,.0f/s%n",
            round + 1, rawPublish, ourPublish, rawConsume, ourConsume, relayed, rawOneByOne);
        System.out.printf(
            "         consume: raw reading headers too %,.0f/s; first record after raw %.0f ms,"
                + " ours %.0f ms%n",
            rawConsumeWithHeaders, RawKafkaConsumers.firstRecordMillis, ourFirst);
        System.out.printf(
            "         queue (share group) consume raw %,.0f/s ours %,.0f/s%n", rawQueue, ourQueue);
        System.out.printf(
            "         relay finishing one batch before reading the next %,.0f rows/s%n", relays[1]);
      }
      if (Boolean.getBoolean("bench.consumeOnly")) {
        printConsumeRatios(rates);
        return;
      }
      if (Boolean.getBoolean("bench.queueOnly")) {
        printQueueRatio(rates);
        return;
      }
      double publishRaw = OutboxBench.median(rates[0]);
      double publishOurs = OutboxBench.median(rates[1]);
      double consumeRaw = OutboxBench.median(rates[2]);
      double consumeOurs = OutboxBench.median(rates[3]);
      double oneByOne = OutboxBench.median(rates[4]);
      double relayed = OutboxBench.median(rates[5]);
      System.out.printf(
          "%nmedian: publish raw %,.0f/s ours %,.0f/s | consume raw %,.0f/s ours %,.0f/s |"
              + " relay %,.0f rows/s, raw one-by-one %,.0f/s%n",
          publishRaw, publishOurs, consumeRaw, consumeOurs, relayed, oneByOne);
      System.out.printf(
          "ratio publish provider / raw (same headers) = %.2f (target >= 0.9)%n",
          publishOurs / publishRaw);
      printConsumeRatios(rates);
      printQueueRatio(rates);
      System.out.printf(
          "ratio relay / raw acknowledged send one by one = %.2f%n", relayed / oneByOne);
      System.out.printf(
          "relay rows/s = %,.0f (rounds %,.0f-%,.0f; target >= 10,000); one batch at a time %,.0f"
              + " (pipelined / one at a time = %.2f)%n",
          relayed,
          Arrays.stream(rates[5]).min().orElse(0),
          Arrays.stream(rates[5]).max().orElse(0),
          OutboxBench.median(rates[9]),
          relayed / OutboxBench.median(rates[9]));
      System.out.printf(
          "ratio relay / raw acknowledged sends in batches of %d = %.2f%n",
          batch, relayed / publishRaw);
    } finally {
      provider.stop(false);
      database.close();
    }
  }

  /** The consume medians and ratios, with the spread of the per-round ratio. */
  private static void printConsumeRatios(double[][] rates) {
    double consumeRaw = OutboxBench.median(rates[2]);
    double consumeOurs = OutboxBench.median(rates[3]);
    double[] spread = roundSpread(rates[3], rates[2]);
    System.out.printf(
        "ratio consume provider / raw = %.2f (target >= 0.9; raw %,.0f/s, ours %,.0f/s; rounds"
            + " %.2f-%.2f)%n",
        consumeOurs / consumeRaw, consumeRaw, consumeOurs, spread[0], spread[1]);
    System.out.printf(
        "ratio consume provider / raw reading each record's headers too = %.2f (raw %,.0f/s)%n",
        consumeOurs / OutboxBench.median(rates[8]), OutboxBench.median(rates[8]));
  }

  /**
   * Queue addresses: a share group each side reading records already in its topic, the two sides in
   * turn. Returns {ours, raw} in records per second.
   */
  private static double[] compareQueues(
      MailboxProvider provider, String servers, String run, int round, int messages, int batch)
      throws Exception {
    MailAddress queueRaw = address("queue-raw", run, round);
    MailAddress queueOurs = address("queue-ours", run, round);
    ProviderBench.publish(provider, queueRaw, messages, batch, ProviderBench.BODY);
    ProviderBench.publish(provider, queueOurs, messages, batch, ProviderBench.BODY);
    return ProviderBench.alternately(
        round,
        () -> ProviderBench.consume(provider, queueOurs, messages, true),
        () -> RawKafkaConsumers.shareConsume(servers, topic(provider, queueRaw), messages));
  }

  private static void printQueueRatio(double[][] rates) {
    double[] spread = roundSpread(rates[7], rates[6]);
    System.out.printf(
        "ratio queue consume provider / raw share consumer = %.2f (raw %,.0f/s, ours %,.0f/s;"
            + " rounds %.2f-%.2f)%n",
        OutboxBench.median(rates[7]) / OutboxBench.median(rates[6]),
        OutboxBench.median(rates[6]),
        OutboxBench.median(rates[7]),
        spread[0],
        spread[1]);
  }

  /** The lowest and highest of the rounds' ratios ours / raw. */
  private static double[] roundSpread(double[] ours, double[] raw) {
    double[] perRound = new double[ours.length];
    for (int i = 0; i < perRound.length; i++) {
      perRound[i] = ours[i] / raw[i];
    }
    return new double[] {
      Arrays.stream(perRound).min().orElse(0), Arrays.stream(perRound).max().orElse(0)
    };
  }

  private static MailAddress address(String what, String run, int round) {
    return MailAddress.parse("kafka://bench@kafka/" + what + "-" + run + "-" + (round + 2));
  }

  /** The topic the provider maps {@code address} to, as its status reports it. */
  private static String topic(MailboxProvider provider, MailAddress address) {
    return (String) provider.status(address).extensions().get("kafka.topic");
  }

  // ---- publish ---------------------------------------------------------------------------------

  private static KafkaProducer<byte[], byte[]> rawProducer(String servers, int lingerMillis) {
    Properties properties = new Properties();
    properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
    properties.put(ProducerConfig.ACKS_CONFIG, "all");
    properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    properties.put(ProducerConfig.LINGER_MS_CONFIG, lingerMillis);
    return new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
  }

  private static double rawPublish(
      KafkaProducer<byte[], byte[]> producer, String topic, int count, int batch) throws Exception {
    long start = System.nanoTime();
    List<Future<RecordMetadata>> sent = new ArrayList<>(batch);
    for (int done = 0; done < count; ) {
      int n = Math.min(batch, count - done);
      for (int i = 0; i < n; i++) {
        sent.add(producer.send(asTheProviderSends(topic, done + i)));
      }
      for (Future<RecordMetadata> acknowledged : sent) {
        acknowledged.get(30, TimeUnit.SECONDS);
      }
      sent.clear();
      done += n;
    }
    return count / OutboxBench.seconds(start);
  }

  /** What a careful raw producer sends per record: ids and times as headers, as ours does. */
  private static ProducerRecord<byte[], byte[]> asTheProviderSends(String topic, int i) {
    RecordHeaders headers = new RecordHeaders();
    headers.add("mbx-send-id", utf8(UUID.randomUUID().toString()));
    headers.add("mbx-sent-at", utf8(java.time.Instant.now().toString()));
    headers.add("mbx-message-id", utf8("m-" + i));
    headers.add("mbx-producer", utf8("mailbox"));
    return new ProducerRecord<>(
        topic, null, System.currentTimeMillis(), null, utf8(ProviderBench.BODY), headers);
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
