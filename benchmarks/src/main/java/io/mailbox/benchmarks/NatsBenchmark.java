package io.mailbox.benchmarks;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.provider.nats.NatsProvider;
import io.mailbox.connector.provider.nats.NatsSettings;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.nats.client.Connection;
import io.nats.client.ConsumeOptions;
import io.nats.client.IterableConsumer;
import io.nats.client.JetStream;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.PublishOptions;
import io.nats.client.PullSubscribeOptions;
import io.nats.client.api.AckPolicy;
import io.nats.client.api.ConsumerConfiguration;
import io.nats.client.api.DeliverPolicy;
import io.nats.client.api.PublishAck;
import io.nats.client.impl.Headers;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * {@code nats:} against raw {@code jnats} on the same server and stream, side by side in one run,
 * with the settings the provider uses:
 *
 * <ol>
 *   <li><b>publish</b>: N messages in batches of B — raw: B {@code publishAsync} with the headers
 *       the provider writes (send id, send time, message id, producer mark), then wait for every
 *       acknowledgement; provider: {@code postAll} of B;
 *   <li><b>consume</b>: N messages already stored — raw: a durable pull consumer (explicit acks,
 *       the provider's ack wait) fetching batches of 256, decoding and acknowledging each message,
 *       then confirming the batch's acks with one {@code flush} (as the provider does); provider: a
 *       subscription, each message handled and acknowledged;
 *   <li><b>relay</b>: R outbox rows on embedded H2 relayed to {@code nats:} vs raw acknowledged
 *       publishes of R messages one at a time.
 * </ol>
 *
 * Untimed warm-up rounds ({@link ProviderBench#warmUpRounds}), then the measured rounds; medians
 * and ratios printed. Arguments: {@code [messages] [batch] [relayRows] [rounds] [url]} (default
 * 10000 100 2000 5 and the machine's server). The run uses a stream of its own and deletes it at
 * the end.
 */
public final class NatsBenchmark {
  private static final Duration BOUND = Duration.ofSeconds(30);

  private NatsBenchmark() {}

  public static void main(String[] args) {
    ProviderBench.runThenExit(() -> run(args));
  }

  private static void run(String[] args) throws Exception {
    int messages = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int batch = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    int relayRows = args.length > 2 ? Integer.parseInt(args[2]) : 2_000;
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 5;
    String url = args.length > 4 ? args[4] : "nats://127.0.0.1:4222";
    String run = UUID.randomUUID().toString().substring(0, 8);
    String stream = "BENCH_" + run;
    String prefix = "bench-" + run;
    NatsSettings settings = NatsSettings.defaults().withUrl(url).withCreatedStream(stream, prefix);
    MailboxProvider provider =
        MailboxProvider.of(new NatsProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
    EntityManagerFactory database = Persistence.createEntityManagerFactory("mailbox-bench");
    try (Connection raw = Nats.connect(url)) {
      System.out.printf(
          "nats: on %s: %d messages in batches of %d, %d relay rows, stream %s%n",
          url, messages, batch, relayRows, stream);
      double[][] rates = new double[6][rounds];
      double[] prefetching = new double[rounds];
      int warmUps = ProviderBench.warmUpRounds(messages);
      for (int round = -warmUps; round < rounds; round++) { // below 0: untimed warm-up (JIT)
        MailAddress publish = address("publish", round);
        MailAddress consumeRaw = address("consume-raw", round);
        MailAddress consumeOurs = address("consume-ours", round);
        MailAddress relayTo = address("relay", round);
        MailAddress rawOneByOneTo = address("raw-one", round);
        String publishTarget = subject(provider, publish);
        double[] publishes =
            ProviderBench.alternately(
                round,
                () -> ProviderBench.publish(provider, publish, messages, batch, ProviderBench.BODY),
                () -> rawPublish(raw, stream, publishTarget, messages, batch));
        double ourPublish = publishes[0];
        double rawPublish = publishes[1];

        String rawSubject = subject(provider, consumeRaw);
        String rawConsumer = rawConsumer(raw, stream, rawSubject, round, settings);
        ProviderBench.publish(provider, consumeRaw, messages, batch, ProviderBench.BODY);
        double rawConsume = rawConsume(raw, stream, rawSubject, rawConsumer, messages);
        // Ours against jnats's prefetching consumer: both stored first, then read in turn, the
        // first side alternating every round (as for publish).
        ProviderBench.publish(provider, consumeOurs, messages, batch, ProviderBench.BODY);
        MailAddress consumeIterated = address("consume-iterated", round);
        String iteratedSubject = subject(provider, consumeIterated);
        String iteratedConsumer =
            rawConsumer(raw, stream, iteratedSubject, round, settings, "iterated-");
        ProviderBench.publish(provider, consumeIterated, messages, batch, ProviderBench.BODY);
        double[] consumes =
            ProviderBench.alternately(
                round,
                () -> ProviderBench.consume(provider, consumeOurs, messages),
                () -> rawConsumeIterated(raw, stream, iteratedConsumer, messages));
        double ourConsume = consumes[0];
        double rawIterated = consumes[1];
        double ourFirst = ProviderBench.firstRecordMillis;

        double rawOneByOne =
            rawPublish(raw, stream, subject(provider, rawOneByOneTo), relayRows, 1);
        double relayed = new OutboxRelayRig(database, provider, relayTo).relay(relayRows);
        if (round < 0) {
          continue;
        }
        prefetching[round] = rawIterated;
        double[] measured = {rawPublish, ourPublish, rawConsume, ourConsume, rawOneByOne, relayed};
        for (int i = 0; i < measured.length; i++) {
          rates[i][round] = measured[i];
        }
        System.out.printf(
            "round %d: publish raw %,.0f/s ours %,.0f/s | consume raw %,.0f/s ours %,.0f/s |"
                + " relay %,.0f rows/s, raw one-by-one %,.0f/s%n",
            round + 1, rawPublish, ourPublish, rawConsume, ourConsume, relayed, rawOneByOne);
        System.out.printf(
            "         consume raw iterate %,.0f/s; first message after ours %.1f ms, iterate %.1f ms%n",
            rawIterated, ourFirst, iteratedFirstMillis);
      }
      BrokerBenchReport.print(rates, "acknowledged publish one by one");
      System.out.printf(
          "consume raw prefetching (jnats iterate, batches of 256) %,.0f/s: ours / that = %.2f"
              + " (per-round median %.2f)%n",
          OutboxBench.median(prefetching),
          OutboxBench.median(rates[3]) / OutboxBench.median(prefetching),
          BrokerBenchReport.medianRatio(rates[3], prefetching));
      raw.jetStreamManagement().deleteStream(stream);
    } finally {
      provider.stop(false);
      database.close();
    }
  }

  // Names end in the round + 100: warm-up rounds are numbered below 0.
  private static MailAddress address(String what, int round) {
    return MailAddress.parse("nats://bench@nats/" + what + "-" + (round + 100));
  }

  /** The subject the provider maps {@code address} to (its consumer made by the status call). */
  private static String subject(MailboxProvider provider, MailAddress address) {
    provider.post(MailMessage.to(address).body("{}").build()); // the consumer, then one message
    provider.fetch(address, io.mailbox.connector.api.FetchOptions.autoAck());
    return (String) provider.status(address).extensions().get("nats.subject");
  }

  private static double rawPublish(
      Connection raw, String stream, String subject, int count, int batch) throws Exception {
    JetStream js = raw.jetStream();
    // The provider's options: the stream the message must land in is checked by the server.
    PublishOptions options =
        PublishOptions.builder().expectedStream(stream).streamTimeout(BOUND).build();
    byte[] body = ProviderBench.BODY.getBytes(StandardCharsets.UTF_8);
    long start = System.nanoTime();
    for (int sent = 0; sent < count; ) {
      int n = Math.min(batch, count - sent);
      List<CompletableFuture<PublishAck>> acks = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        Headers headers = new Headers();
        headers.put(SystemHeaders.SEND_ID, UUID.randomUUID().toString());
        headers.put(SystemHeaders.SENT_AT, Instant.now().toString());
        headers.put("mbx-message-id", "m-" + (sent + i));
        headers.put("mbx-producer", "mailbox");
        acks.add(js.publishAsync(subject, headers, body, options));
      }
      for (CompletableFuture<PublishAck> ack : acks) {
        ack.get();
      }
      sent += n;
    }
    return count / OutboxBench.seconds(start);
  }

  /** A durable consumer of the raw side, made before its messages are stored. */
  private static String rawConsumer(
      Connection raw, String stream, String subject, int round, NatsSettings settings)
      throws Exception {
    return rawConsumer(raw, stream, subject, round, settings, "raw-");
  }

  private static String rawConsumer(
      Connection raw,
      String stream,
      String subject,
      int round,
      NatsSettings settings,
      String namePrefix)
      throws Exception {
    String name = namePrefix + (round + 100);
    raw.jetStreamManagement()
        .addOrUpdateConsumer(
            stream,
            ConsumerConfiguration.builder()
                .durable(name)
                .filterSubject(subject)
                .deliverPolicy(DeliverPolicy.New)
                .ackPolicy(AckPolicy.Explicit)
                .ackWait(settings.ackWait())
                .build());
    return name;
  }

  private static double rawConsume(
      Connection raw, String stream, String subject, String consumer, int count) throws Exception {
    long start = System.nanoTime();
    JetStreamSubscription subscription =
        raw.jetStream().subscribe(subject, PullSubscribeOptions.bind(stream, consumer));
    int seen = 0;
    while (seen < count) {
      List<Message> batch = subscription.fetch(256, Duration.ofMillis(250));
      for (Message message : batch) {
        new String(message.getData(), StandardCharsets.UTF_8); // the same decoding work as ours
        message.ack();
        seen++;
      }
      if (!batch.isEmpty()) {
        raw.flush(BOUND); // the batch's acks confirmed with one round trip, as the provider does
      }
    }
    double rate = count / OutboxBench.seconds(start);
    subscription.unsubscribe();
    return rate;
  }

  /** How long the last {@link #rawConsumeIterated} waited for its first message. */
  private static double iteratedFirstMillis;

  /**
   * The same consumer read through jnats's own prefetching API (what its documentation recommends
   * over {@code fetch}): messages pulled ahead in batches of 256, each acknowledged, the acks
   * confirmed with one round trip per 256 — the provider's pull-ahead, written with the client.
   */
  private static double rawConsumeIterated(
      Connection raw, String stream, String consumer, int count) throws Exception {
    long start = System.nanoTime();
    iteratedFirstMillis = -1;
    int seen = 0;
    try (IterableConsumer iterator =
        raw.getConsumerContext(stream, consumer)
            .iterate(ConsumeOptions.builder().batchSize(256).build())) {
      while (seen < count) {
        Message message = iterator.nextMessage(Duration.ofMillis(250));
        if (message == null) {
          continue;
        }
        if (seen == 0) {
          iteratedFirstMillis = (System.nanoTime() - start) / 1e6;
        }
        new String(message.getData(), StandardCharsets.UTF_8);
        message.ack();
        if (++seen % 256 == 0) {
          raw.flush(BOUND);
        }
      }
      raw.flush(BOUND);
    }
    return count / OutboxBench.seconds(start);
  }
}
