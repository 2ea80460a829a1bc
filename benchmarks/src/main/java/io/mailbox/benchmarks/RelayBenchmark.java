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
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The outbox relay against the database's own speed (issue 21, item 2), side by side in one process
 * on the same table:
 *
 * <ul>
 *   <li><b>raw-SQL floor</b>: the relay's claim and mark-sent statements on the same rows with
 *       plain JDBC, one statement per batch of 500 (the relay's batch) each in its own transaction,
 *       no publish, no page read (the ids are read before the clock starts);
 *   <li><b>relay → {@code mem:}</b>: the relay as the server runs it (shipped settings, each store
 *       call its own transaction, sweeps back to back until one ends its lap with nothing left,
 *       each batch published and marked sent on a second thread while the next is claimed), with
 *       the time spent in each store call;
 *   <li><b>relay, one batch at a time</b>: the same relay finishing each batch before it reads the
 *       next (as before the pipeline);
 *   <li><b>direct send</b> of the same envelopes to {@code mem:} (for scale only).
 * </ul>
 *
 * Each measured run starts from an empty table; rounds rotate which of the three goes first;
 * statistics are analyzed after each write ({@code -Dbench.staleStatistics=true} leaves those of
 * the empty table). Arguments: {@code [rows] [rounds] [database] [keys] [relays]} (default 10000 5
 * postgresql 50 1): {@code database} is {@code postgresql} (a fresh database on the machine's
 * server, the shipped DDL) or {@code h2}; {@code keys} ordering keys spread over the rows (0:
 * none); {@code relays} relays sweeping the same table at once.
 */
public final class RelayBenchmark {
  private static final IntegrationEventDefinition<JsonObject> PLACED =
      IntegrationEventDefinition.define(
          "orders.placed", 1, "orders.placed.v1", data -> data.asJsonObject());
  private static final int BATCH = 500;

  private RelayBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    String kind = args.length > 2 ? args[2] : "postgresql";
    int keys = args.length > 3 ? Integer.parseInt(args[3]) : 50;
    int relays = args.length > 4 ? Integer.parseInt(args[4]) : 1;
    try (OutboxDatabase database = OutboxDatabase.open(kind)) {
      MailboxProvider provider = MailboxProvider.of(MemoryProvider.isolated());
      provider.start();
      OutboxRows writer =
          new OutboxRows(java.time.Clock.systemUTC(), topic -> "mem:bench@relay/" + topic, 262_144);
      OutboxStore store = OutboxBench.perCallTransactions(database.entities);
      System.out.printf(
          "relay on %s (%s): %,d rows per run, %d ordering keys, batches of %d, %d relay(s)%n",
          kind, database.jdbcUrl, rows, keys, BATCH, relays);

      double[][] rates = new double[4][rounds];
      java.util.concurrent.Executor pipelined = OutboxBench.finishingThreads();
      java.util.concurrent.Executor inline = Runnable::run;
      for (int round = -1; round < rounds; round++) { // round -1: untimed warm-up (JIT, plans)
        double[] measured = new double[3];
        for (int turn = 0; turn < 3; turn++) {
          int which = Math.floorMod(round + turn, 3); // who goes first rotates
          measured[which] =
              switch (which) {
                case 0 -> floor(database, write(database, writer, rows, keys));
                case 1 -> relay(database, store, provider, writer, rows, keys, relays, pipelined);
                default -> relay(database, store, provider, writer, rows, keys, relays, inline);
              };
        }
        double direct = direct(provider, rows);
        if (round < 0) {
          continue;
        }
        rates[0][round] = measured[0];
        rates[1][round] = measured[1];
        rates[2][round] = direct;
        rates[3][round] = measured[2];
        System.out.printf(
            "round %d: raw-SQL floor %,.0f rows/s   relay -> mem: %,.0f rows/s (one batch at a"
                + " time %,.0f)   direct send %,.0f/s%n",
            round + 1, measured[0], measured[1], measured[2], direct);
      }
      double floor = OutboxBench.median(rates[0]);
      double relayed = OutboxBench.median(rates[1]);
      System.out.printf(
          "%nmedian of %d rounds: raw-SQL floor %,.0f rows/s (spread %,.0f-%,.0f), relay -> mem:"
              + " %,.0f rows/s (spread %,.0f-%,.0f), direct send %,.0f/s%n",
          rounds,
          floor,
          min(rates[0]),
          max(rates[0]),
          relayed,
          min(rates[1]),
          max(rates[1]),
          OutboxBench.median(rates[2]));
      System.out.printf("ratio relay / raw-SQL floor = %.2f (target >= 0.7)%n", relayed / floor);
      double oneAtATime = OutboxBench.median(rates[3]);
      System.out.printf(
          "relay one batch at a time: %,.0f rows/s (spread %,.0f-%,.0f), %.2f of the floor;"
              + " pipelined / one at a time = %.2f%n",
          oneAtATime, min(rates[3]), max(rates[3]), oneAtATime / floor, relayed / oneAtATime);
      System.out.printf("relay rows/s = %,.0f (target >= 10,000 on PostgreSQL)%n", relayed);
      provider.stop(true);
    }
  }

  /** Writes {@code count} pending rows in transactions of 1,000; returns their ids, in order. */
  static List<String> write(OutboxDatabase database, OutboxRows writer, int count, int keys)
      throws Exception {
    database.empty();
    List<String> ids = new ArrayList<>(count);
    for (int start = 0; start < count; start += 1_000) {
      List<OutboxRecord> chunk = new ArrayList<>();
      for (int i = start; i < Math.min(count, start + 1_000); i++) {
        JsonObject order =
            Json.createObjectBuilder().add("orderId", "o-" + i).add("quantity", 1).build();
        WriteOptions options =
            keys == 0 ? WriteOptions.none() : WriteOptions.none().withOrderingKey("k" + i % keys);
        OutboxRecord record = writer.create(PLACED, order, options);
        chunk.add(record);
        ids.add(record.id());
      }
      OutboxBench.inTransaction(
          database.entities,
          em -> {
            chunk.forEach(em::persist);
            return null;
          });
    }
    if (!STALE_STATISTICS) {
      database.analyze();
    }
    return ids;
  }

  /** {@code -Dbench.staleStatistics=true}: leave the statistics of the empty table in place. */
  private static final boolean STALE_STATISTICS = Boolean.getBoolean("bench.staleStatistics");

  private static double relay(
      OutboxDatabase database,
      OutboxStore store,
      MailboxProvider provider,
      OutboxRows writer,
      int rows,
      int keys,
      int relays,
      java.util.concurrent.Executor finishing)
      throws Exception {
    write(database, writer, rows, keys);
    List<OutboxRelay> instances = new ArrayList<>();
    for (int i = 0; i < relays; i++) {
      instances.add(OutboxBench.relayTo(store, provider, "bench-" + i, finishing));
    }
    OutboxBench.STORE_NANOS.clear();
    java.util.concurrent.ExecutorService threads =
        java.util.concurrent.Executors.newFixedThreadPool(relays);
    long start = System.nanoTime();
    List<java.util.concurrent.Future<?>> running = new ArrayList<>();
    for (OutboxRelay relay : instances) {
      // As the server's relay service: sweeps back to back until one ends a lap with nothing left.
      running.add(
          threads.submit(
              () -> {
                io.mailbox.ejb.outbox.SweepResult result;
                do {
                  result = relay.sweep();
                } while (result.published() > 0 || !result.lapEnded());
                return null;
              }));
    }
    for (java.util.concurrent.Future<?> done : running) {
      done.get();
    }
    double rate = rows / OutboxBench.seconds(start);
    threads.shutdown();
    StringBuilder spent = new StringBuilder("  relay's store calls (ms, each its transaction):");
    OutboxBench.STORE_NANOS.forEach(
        (call, nanos) -> spent.append(' ').append(call).append('=').append(nanos / 1_000_000));
    System.out.println(spent);
    expect((int) store.count(OutboxStatus.PENDING), 0);
    return rate;
  }

  /** The relay's two statements per batch with plain JDBC, each its own transaction. */
  private static double floor(OutboxDatabase database, List<String> ids) throws Exception {
    try (Connection connection = database.connect()) {
      connection.setAutoCommit(true);
      long start = System.nanoTime();
      for (int from = 0; from < ids.size(); from += BATCH) {
        List<String> batch = ids.subList(from, Math.min(ids.size(), from + BATCH));
        String in = String.join(",", Collections.nCopies(batch.size(), "?"));
        try (PreparedStatement claim =
            connection.prepareStatement(
                "UPDATE MBX_OUTBOX SET CLAIM_VERSION = (CLAIM_VERSION + 1), LEASE_UNTIL = ?,"
                    + " SENT_BY = ? WHERE ((CLAIM_VERSION = ?) AND (ID IN ("
                    + in
                    + ")))")) {
          claim.setLong(1, System.currentTimeMillis() + 30_000);
          claim.setString(2, "floor");
          claim.setLong(3, 0);
          bind(claim, 4, batch);
          expect(claim.executeUpdate(), batch.size());
        }
        try (PreparedStatement mark =
            connection.prepareStatement(
                "UPDATE MBX_OUTBOX SET STATUS = ?, CLAIM_VERSION = (CLAIM_VERSION + 1), SETTLED_AT"
                    + " = ?, SENT_BY = ?, LEASE_UNTIL = ?, LAST_ERROR = NULL WHERE ((CLAIM_VERSION ="
                    + " ?) AND (ID IN ("
                    + in
                    + ")))")) {
          mark.setString(1, OutboxStatus.SENT.name());
          mark.setLong(2, System.currentTimeMillis());
          mark.setString(3, "floor");
          mark.setLong(4, 0);
          mark.setLong(5, 1);
          bind(mark, 6, batch);
          expect(mark.executeUpdate(), batch.size());
        }
      }
      double rate = ids.size() / OutboxBench.seconds(start);
      try (PreparedStatement left =
              connection.prepareStatement("SELECT COUNT(*) FROM MBX_OUTBOX WHERE STATUS = ?");
          ResultSet count = bindStatus(left).executeQuery()) {
        count.next();
        expect(count.getInt(1), 0);
      }
      return rate;
    }
  }

  private static PreparedStatement bindStatus(PreparedStatement statement) throws Exception {
    statement.setString(1, OutboxStatus.PENDING.name());
    return statement;
  }

  private static void bind(PreparedStatement statement, int first, List<String> ids)
      throws Exception {
    for (int i = 0; i < ids.size(); i++) {
      statement.setString(first + i, ids.get(i));
    }
  }

  private static void expect(int actual, int expected) {
    if (actual != expected) {
      throw new IllegalStateException("expected " + expected + " rows, got " + actual);
    }
  }

  private static double direct(MailboxProvider provider, int rows) {
    long start = System.nanoTime();
    for (int i = 0; i < rows; i++) {
      provider.post(
          MailMessage.to("mem:bench@direct/orders.placed.v1")
              .id("d-" + i)
              .body("{\"orderId\":\"o-" + i + "\"}")
              .build());
    }
    double rate = rows / OutboxBench.seconds(start);
    provider.clear();
    return rate;
  }

  private static double min(double[] values) {
    return java.util.Arrays.stream(values).min().orElse(0);
  }

  private static double max(double[] values) {
    return java.util.Arrays.stream(values).max().orElse(0);
  }
}
