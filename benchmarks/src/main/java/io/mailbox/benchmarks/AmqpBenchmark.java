package io.mailbox.benchmarks;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.provider.amqp.AmqpProvider;
import io.mailbox.connector.provider.amqp.AmqpSettings;
import io.mailbox.connector.spi.ExecutorScheduler;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code amqp:} against raw {@code amqp-client} on the local RabbitMQ, side by side in one run, on
 * the same kind of queue (durable quorum) with the same settings:
 *
 * <ol>
 *   <li><b>publish</b>: N persistent messages in confirm batches of B — raw: B {@code basicPublish}
 *       then {@code waitForConfirmsOrDie}, once with minimal properties and once with the
 *       properties the provider sends (message id, timestamp, app id, a send id and send time
 *       header: the same bytes on the wire); provider: {@code postAll} of B;
 *   <li><b>consume</b>: N queued messages with the provider's prefetch and a manual ack each — raw:
 *       a {@code DefaultConsumer}; provider: a subscription;
 *   <li><b>relay</b>: R outbox rows on PostgreSQL (or embedded H2) relayed to {@code amqp:} (claim,
 *       confirmed publish, mark sent) vs raw confirmed publishes of R messages one at a time (the
 *       same unit of work without the outbox), and vs raw batched publishes.
 * </ol>
 *
 * Two untimed warm-up rounds of everything, then the measured rounds; medians and ratios printed.
 * Arguments: {@code [messages] [batch] [relayRows] [rounds] [database]} (default 10000 100 2000 5
 * postgresql; {@code h2} for embedded H2). Queues are created for the run and deleted afterwards.
 */
public final class AmqpBenchmark {
  private static final String URI = AmqpSettings.DEFAULT_URI;

  private AmqpBenchmark() {}

  public static void main(String[] args) throws Exception {
    int messages = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int batch = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    int relayRows = args.length > 2 ? Integer.parseInt(args[2]) : 2_000;
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 5;
    String databaseKind = args.length > 4 ? args[4] : "postgresql";
    String run = UUID.randomUUID().toString().substring(0, 8);
    MailAddress publishAddress = MailAddress.parse("amqp://bench@rabbit/publish-" + run);
    MailAddress consumeAddress = MailAddress.parse("amqp://bench@rabbit/consume-" + run);
    MailAddress relayAddress = MailAddress.parse("amqp://bench@rabbit/relay-" + run);

    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(URI);
    MailboxProvider provider =
        MailboxProvider.of(
            new AmqpProvider(AmqpSettings.defaults(), Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
    OutboxDatabase database = OutboxDatabase.open(databaseKind);
    try (Connection raw = factory.newConnection("bench-raw")) {
      // The provider declares its queues (quorum) on first use; raw publishes go to the same ones.
      provider.post(MailMessage.to(publishAddress).body("{}").build());
      provider.post(MailMessage.to(consumeAddress).body("{}").build());
      provider.post(MailMessage.to(relayAddress).body("{}").build());
      purge(raw, publishAddress, consumeAddress, relayAddress);
      System.out.printf(
          "amqp: on RabbitMQ %s: %d messages in confirm batches of %d, prefetch %d, %d relay rows"
              + " on %s%n",
          AmqpSettings.defaults().where(),
          messages,
          batch,
          AmqpSettings.defaults().prefetch(),
          relayRows,
          databaseKind);

      OutboxRelayRig relay = new OutboxRelayRig(database, provider, relayAddress);
      double[][] rates = new double[7][rounds];
      for (int round = -2; round < rounds; round++) { // rounds -2 and -1: untimed warm-up (JIT)
        double rawPublish = rawPublish(raw, publishAddress.mailbox(), messages, batch, false);
        purge(raw, publishAddress);
        double rawSameWire = rawPublish(raw, publishAddress.mailbox(), messages, batch, true);
        purge(raw, publishAddress);
        double ourPublish =
            ProviderBench.publish(provider, publishAddress, messages, batch, ProviderBench.BODY);
        purge(raw, publishAddress);

        ProviderBench.publish(provider, consumeAddress, messages, batch, ProviderBench.BODY);
        double rawConsume = rawConsume(raw, consumeAddress.mailbox(), messages);
        ProviderBench.publish(provider, consumeAddress, messages, batch, ProviderBench.BODY);
        double ourConsume = ProviderBench.consume(provider, consumeAddress, messages);
        purge(raw, consumeAddress);

        double rawOneByOne = rawPublish(raw, relayAddress.mailbox(), relayRows, 1, true);
        purge(raw, relayAddress);
        double relayed = relay.relay(relayRows);
        purge(raw, relayAddress);
        if (round < 0) {
          continue;
        }
        double[] measured = {
          rawPublish, ourPublish, rawConsume, ourConsume, rawOneByOne, relayed, rawSameWire
        };
        for (int i = 0; i < measured.length; i++) {
          rates[i][round] = measured[i];
        }
        System.out.printf(
            "round %d: publish raw %,.0f/s raw same wire %,.0f/s ours %,.0f/s | consume raw %,.0f/s ours %,.0f/s |"
                + " relay %,.0f rows/s, raw one-by-one %,.0f/s%n",
            round + 1,
            rawPublish,
            rawSameWire,
            ourPublish,
            rawConsume,
            ourConsume,
            relayed,
            rawOneByOne);
      }
      double publishRaw = OutboxBench.median(rates[0]);
      double publishOurs = OutboxBench.median(rates[1]);
      double consumeRaw = OutboxBench.median(rates[2]);
      double consumeOurs = OutboxBench.median(rates[3]);
      double oneByOne = OutboxBench.median(rates[4]);
      double relayed = OutboxBench.median(rates[5]);
      double publishSameWire = OutboxBench.median(rates[6]);
      System.out.printf(
          "%nmedian: publish raw %,.0f/s raw same wire %,.0f/s ours %,.0f/s | consume raw %,.0f/s"
              + " ours %,.0f/s | relay %,.0f rows/s, raw one-by-one %,.0f/s%n",
          publishRaw, publishSameWire, publishOurs, consumeRaw, consumeOurs, relayed, oneByOne);
      System.out.printf(
          "ratio publish provider / raw with the same properties = %.2f (target >= 0.9)%n",
          publishOurs / publishSameWire);
      System.out.printf(
          "ratio publish provider / raw with minimal properties = %.2f%n",
          publishOurs / publishRaw);
      System.out.printf(
          "ratio consume provider / raw = %.2f (target >= 0.9)%n", consumeOurs / consumeRaw);
      System.out.printf(
          "ratio relay / raw confirmed publish one by one = %.2f (target >= 0.7)%n",
          relayed / oneByOne);
      System.out.printf(
          "ratio relay / raw confirmed publish in batches of %d = %.2f (target >= 0.5)%n",
          batch, relayed / publishRaw);
      delete(raw, publishAddress, consumeAddress, relayAddress);
    } finally {
      provider.stop(false);
      database.close();
    }
  }

  // ---- publish ---------------------------------------------------------------------------------

  private static double rawPublish(
      Connection connection, String queue, int count, int batch, boolean sameWire)
      throws Exception {
    try (Channel channel = connection.createChannel()) {
      channel.confirmSelect();
      AMQP.BasicProperties minimal =
          new AMQP.BasicProperties.Builder()
              .deliveryMode(2)
              .contentType("application/json")
              .messageId("id")
              .build();
      long start = System.nanoTime();
      for (int sent = 0; sent < count; ) {
        int n = Math.min(batch, count - sent);
        for (int i = 0; i < n; i++) {
          byte[] body = ProviderBench.BODY.getBytes(StandardCharsets.UTF_8);
          channel.basicPublish("", queue, true, sameWire ? asTheProviderSends(i) : minimal, body);
        }
        channel.waitForConfirmsOrDie(30_000);
        sent += n;
      }
      return count / OutboxBench.seconds(start);
    }
  }

  /** What a careful raw publisher sends per message: ids, times, and the same header table. */
  private static AMQP.BasicProperties asTheProviderSends(int i) {
    java.time.Instant now = java.time.Instant.now();
    return new AMQP.BasicProperties.Builder()
        .appId("mailbox")
        .messageId("m-" + i)
        .timestamp(java.util.Date.from(now))
        .contentType("application/json")
        .contentEncoding("utf-8")
        .deliveryMode(2)
        .headers(
            java.util.Map.of(
                "mbx-send-id", UUID.randomUUID().toString(), "mbx-sent-at", now.toString()))
        .build();
  }

  // ---- consume ---------------------------------------------------------------------------------

  private static double rawConsume(Connection connection, String queue, int count)
      throws Exception {
    try (Channel channel = connection.createChannel()) {
      channel.basicQos(AmqpSettings.defaults().prefetch()); // the provider's window
      CountDownLatch done = new CountDownLatch(count);
      long start = System.nanoTime();
      String tag =
          channel.basicConsume(
              queue,
              false,
              new DefaultConsumer(channel) {
                @Override
                public void handleDelivery(
                    String consumerTag,
                    Envelope envelope,
                    AMQP.BasicProperties properties,
                    byte[] body)
                    throws java.io.IOException {
                  new String(body, StandardCharsets.UTF_8); // the same decoding work as ours
                  channel.basicAck(envelope.getDeliveryTag(), false);
                  done.countDown();
                }
              });
      if (!done.await(120, TimeUnit.SECONDS)) {
        throw new IllegalStateException("raw consumer got " + (count - done.getCount()));
      }
      double rate = count / OutboxBench.seconds(start);
      channel.basicCancel(tag);
      return rate;
    }
  }

  // ---- queues ----------------------------------------------------------------------------------

  private static void purge(Connection connection, MailAddress... addresses) throws Exception {
    try (Channel channel = connection.createChannel()) {
      for (MailAddress address : addresses) {
        channel.queuePurge(address.mailbox());
      }
    }
  }

  private static void delete(Connection connection, MailAddress... addresses) throws Exception {
    try (Channel channel = connection.createChannel()) {
      for (MailAddress address : addresses) {
        channel.queueDelete(address.mailbox());
        for (long delay : AmqpSettings.defaults().retryDelaysMillis()) {
          channel.queueDelete(address.mailbox() + ".retry." + delay + "ms");
        }
      }
    }
  }
}
