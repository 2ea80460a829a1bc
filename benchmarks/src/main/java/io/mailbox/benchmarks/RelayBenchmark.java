package io.mailbox.benchmarks;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.provider.mem.MemoryProvider;
import io.mailbox.ejb.event.IntegrationEventDefinition;
import io.mailbox.ejb.outbox.OutboxRecord;
import io.mailbox.ejb.outbox.OutboxRelay;
import io.mailbox.ejb.outbox.OutboxRows;
import io.mailbox.ejb.outbox.OutboxStatus;
import io.mailbox.ejb.outbox.OutboxStore;
import io.mailbox.ejb.outbox.WriteOptions;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Relay throughput against a direct send, side by side in one process: the same N envelopes are (a)
 * posted straight to a {@code mem:} provider and (b) committed as outbox rows on embedded H2 and
 * relayed to the same provider (claim, publish, mark sent: two transactions per row). Prints rows
 * per second for each and the ratio relay / direct. Arguments: {@code [rows] [rounds]} (default
 * 5000 3).
 */
public final class RelayBenchmark {
  private static final IntegrationEventDefinition<JsonObject> PLACED =
      IntegrationEventDefinition.define(
          "orders.placed", 1, "orders.placed.v1", data -> data.asJsonObject());

  private RelayBenchmark() {}

  public static void main(String[] args) {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    EntityManagerFactory factory = Persistence.createEntityManagerFactory("mailbox-bench");
    MailboxProvider provider = MailboxProvider.of(MemoryProvider.isolated());
    provider.start();
    OutboxRows writer =
        new OutboxRows(Clock.systemUTC(), topic -> "mem:bench@relay/" + topic, 262_144);
    OutboxStore store = OutboxBench.perCallTransactions(factory);
    OutboxRelay relay = OutboxBench.relayTo(store, provider);

    double[] direct = new double[rounds];
    double[] relayed = new double[rounds];
    for (int round = 0; round < rounds; round++) {
      List<OutboxRecord> batch = new ArrayList<>();
      List<String> envelopes = new ArrayList<>();
      for (int i = 0; i < rows; i++) {
        JsonObject order =
            Json.createObjectBuilder()
                .add("orderId", "o-" + round + "-" + i)
                .add("quantity", 1)
                .build();
        OutboxRecord record =
            writer.create(PLACED, order, WriteOptions.none().withOrderingKey("k" + (i % 50)));
        batch.add(record);
        envelopes.add(order.toString());
      }

      long start = System.nanoTime();
      for (int i = 0; i < rows; i++) {
        provider.post(
            MailMessage.to("mem:bench@direct/orders.placed.v1")
                .id(batch.get(i).id())
                .body(envelopes.get(i))
                .build());
      }
      direct[round] = rows / OutboxBench.seconds(start);
      provider.clear();

      OutboxBench.inTransaction(
          factory,
          em -> {
            batch.forEach(em::persist);
            return null;
          });
      start = System.nanoTime();
      while (store.count(OutboxStatus.PENDING) > 0) {
        relay.sweep();
      }
      relayed[round] = rows / OutboxBench.seconds(start);
      provider.clear();
      System.out.printf(
          "round %d: direct %,.0f rows/s, relay %,.0f rows/s%n",
          round + 1, direct[round], relayed[round]);
    }
    double directMedian = OutboxBench.median(direct);
    double relayMedian = OutboxBench.median(relayed);
    System.out.printf(
        "%nmedian of %d rounds, %d rows each: direct send %,.0f rows/s, relay %,.0f rows/s, relay / direct = %.4f%n",
        rounds, rows, directMedian, relayMedian, relayMedian / directMedian);
    factory.close();
  }
}
