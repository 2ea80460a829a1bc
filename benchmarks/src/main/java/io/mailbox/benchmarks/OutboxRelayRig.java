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

/** Outbox rows committed on embedded H2 and relayed to the provider, as the server does. */
final class OutboxRelayRig {
  private static final IntegrationEventDefinition<JsonObject> PLACED =
      IntegrationEventDefinition.define(
          "orders.placed", 1, "orders.placed.v1", data -> data.asJsonObject());

  private final EntityManagerFactory database;
  private final OutboxStore store;
  private final OutboxRelay relay;
  private final OutboxRows writer;

  OutboxRelayRig(EntityManagerFactory database, MailboxProvider provider, MailAddress target) {
    this.database = database;
    this.store = OutboxBench.perCallTransactions(database);
    this.writer = new OutboxRows(Clock.systemUTC(), topic -> target.toString(), 262_144);
    this.relay = OutboxBench.relayTo(store, provider);
  }

  double relay(int rows) {
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
    long start = System.nanoTime();
    while (store.count(OutboxStatus.PENDING) > 0) {
      relay.sweep();
    }
    return rows / OutboxBench.seconds(start);
  }
}
