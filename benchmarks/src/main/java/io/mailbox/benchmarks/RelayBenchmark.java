package io.mailbox.benchmarks;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.provider.mem.MemoryProvider;
import io.mailbox.ejb.event.IntegrationEventDefinition;
import io.mailbox.ejb.outbox.JpaOutboxQueries;
import io.mailbox.ejb.outbox.OutboxRecord;
import io.mailbox.ejb.outbox.OutboxRelay;
import io.mailbox.ejb.outbox.OutboxRows;
import io.mailbox.ejb.outbox.OutboxStatus;
import io.mailbox.ejb.outbox.OutboxStore;
import io.mailbox.ejb.outbox.RelaySettings;
import io.mailbox.ejb.outbox.WriteOptions;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.Persistence;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

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
    MemoryProvider provider = MemoryProvider.isolated();
    provider.start();
    OutboxRows writer =
        new OutboxRows(Clock.systemUTC(), topic -> "mem:bench@relay/" + topic, 262_144);
    OutboxStore store = perCallTransactions(factory);
    OutboxRelay relay =
        new OutboxRelay(
            store,
            row ->
                provider.post(
                    MailMessage.to(row.address()).id(row.id()).body(row.envelope()).build()),
            RelaySettings.defaults().withLimits(1000, 1000),
            Clock.systemUTC(),
            "bench");

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
      direct[round] = rows / seconds(start);
      provider.clear();

      inTransaction(
          factory,
          em -> {
            batch.forEach(em::persist);
            return null;
          });
      start = System.nanoTime();
      while (store.count(OutboxStatus.PENDING) > 0) {
        relay.sweep();
      }
      relayed[round] = rows / seconds(start);
      provider.clear();
      System.out.printf(
          "round %d: direct %,.0f rows/s, relay %,.0f rows/s%n",
          round + 1, direct[round], relayed[round]);
    }
    double directMedian = median(direct);
    double relayMedian = median(relayed);
    System.out.printf(
        "%nmedian of %d rounds, %d rows each: direct send %,.0f rows/s, relay %,.0f rows/s, relay / direct = %.4f%n",
        rounds, rows, directMedian, relayMedian, relayMedian / directMedian);
    factory.close();
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static <T> T inTransaction(
      EntityManagerFactory factory, Function<EntityManager, T> work) {
    EntityManager em = factory.createEntityManager();
    EntityTransaction tx = em.getTransaction();
    try {
      tx.begin();
      T result = work.apply(em);
      tx.commit();
      return result;
    } finally {
      if (tx.isActive()) {
        tx.rollback();
      }
      em.close();
    }
  }

  /** Each store call in its own transaction, as the server's REQUIRES_NEW store does. */
  private static OutboxStore perCallTransactions(EntityManagerFactory factory) {
    return (OutboxStore)
        Proxy.newProxyInstance(
            OutboxStore.class.getClassLoader(),
            new Class<?>[] {OutboxStore.class},
            (proxy, method, arguments) ->
                inTransaction(
                    factory,
                    em -> {
                      try {
                        return method.invoke(new JpaOutboxQueries(em), arguments);
                      } catch (InvocationTargetException | IllegalAccessException e) {
                        throw new IllegalStateException(e);
                      }
                    }));
  }
}
