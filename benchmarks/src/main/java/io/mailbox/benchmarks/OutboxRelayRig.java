package io.mailbox.benchmarks;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.kernel.MailboxProvider;
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
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Outbox rows committed on embedded H2, or on an {@link OutboxDatabase} (emptied before each run
 * and analyzed after the write), and relayed to the provider as the server does: the shipped
 * settings, sweeps back to back until one ends a lap with nothing left.
 */
final class OutboxRelayRig {
  private static final IntegrationEventDefinition<JsonObject> PLACED =
      IntegrationEventDefinition.define(
          "orders.placed", 1, "orders.placed.v1", data -> data.asJsonObject());

  private final EntityManagerFactory database;
  private final OutboxDatabase table; // null: embedded H2, never emptied
  private final OutboxStore store;
  private final OutboxRelay relay;
  private final OutboxRows writer;

  OutboxRelayRig(EntityManagerFactory database, MailboxProvider provider, MailAddress target) {
    this(database, null, provider, target, OutboxBench.FINISHING);
  }

  OutboxRelayRig(OutboxDatabase table, MailboxProvider provider, MailAddress target) {
    this(table.entities, table, provider, target, OutboxBench.FINISHING);
  }

  /** A relay that finishes its batches on {@code finishing} ({@code Runnable::run}: one by one). */
  OutboxRelayRig(
      OutboxDatabase table,
      MailboxProvider provider,
      MailAddress target,
      java.util.concurrent.Executor finishing) {
    this(table.entities, table, provider, target, finishing);
  }

  private OutboxRelayRig(
      EntityManagerFactory database,
      OutboxDatabase table,
      MailboxProvider provider,
      MailAddress target,
      java.util.concurrent.Executor finishing) {
    this.database = database;
    this.table = table;
    this.store = OutboxBench.perCallTransactions(database);
    this.writer = new OutboxRows(Clock.systemUTC(), topic -> target.toString(), 262_144);
    this.relay = OutboxBench.relayTo(store, provider, "bench", finishing);
  }

  double relay(int rows) throws java.sql.SQLException {
    if (table != null) {
      table.empty();
    }
    List<OutboxRecord> records = new ArrayList<>(rows);
    for (int i = 0; i < rows; i++) {
      JsonObject order = Json.createObjectBuilder().add("orderId", "o-" + i).build();
      records.add(writer.create(PLACED, order, WriteOptions.none().withOrderingKey("k" + i % 50)));
    }
    OutboxBench.inTransaction(
        database,
        em -> {
          records.forEach(em::persist);
          return null;
        });
    if (table != null) {
      table.analyze();
    }
    OutboxBench.STORE_NANOS.clear();
    OutboxBench.PUBLISH_NANOS.set(0);
    long[] cpuBefore = MachineCpu.ticks();
    long start = System.nanoTime();
    io.mailbox.ejb.outbox.SweepResult result;
    do {
      result = relay.sweep();
    } while (result.published() > 0 || !result.lapEnded());
    double rate = rows / OutboxBench.seconds(start);
    printWhereTheTimeWent(start, MachineCpu.busyPercent(cpuBefore, MachineCpu.ticks()));
    if (store.count(OutboxStatus.PENDING) > 0) {
      throw new IllegalStateException("rows left pending after the relay's lap");
    }
    return rate;
  }

  /**
   * The relay's profile for this run: its wall time, each store call's transactions and the
   * provider's post calls (the broker's confirms included). The sweeping thread reads and claims
   * while the finishing threads publish and mark sent, so the parts add up to more than the wall.
   */
  private static void printWhereTheTimeWent(long startNanos, String machineBusy) {
    StringBuilder text =
        new StringBuilder(
            String.format(
                "  relay (ms): wall %d (the machine's CPUs %s busy); publish calls %d; store calls",
                (System.nanoTime() - startNanos) / 1_000_000,
                machineBusy,
                OutboxBench.PUBLISH_NANOS.get() / 1_000_000));
    OutboxBench.STORE_NANOS.forEach(
        (call, nanos) -> text.append(' ').append(call).append('=').append(nanos / 1_000_000));
    System.out.println(text);
  }
}
