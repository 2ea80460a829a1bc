package io.mailbox.ejb.outbox;

import io.mailbox.ejb.event.IntegrationEventDefinition;
import io.mailbox.ejb.event.IntegrationEventEnvelope;
import jakarta.json.Json;

/** Pending {@code orders.placed.v1} rows for the relay's unit tests, one shape for all of them. */
final class PendingRows {
  static final IntegrationEventDefinition<String> PLACED =
      IntegrationEventDefinition.define(
          "orders.placed", 1, "orders.placed.v1", data -> data.toString());

  private PendingRows() {}

  /** A pending row whose envelope id is {@code id}, written at {@code millis}, never claimed. */
  static OutboxRow pending(
      String id, String key, String address, String position, long millis, long claimVersion) {
    String envelope =
        IntegrationEventEnvelope.of(PLACED, Json.createValue(id)).id(id).build().toJson();
    return new OutboxRow(
        id,
        "orders.placed.v1",
        address,
        envelope,
        key,
        null,
        null,
        null,
        position,
        millis,
        OutboxStatus.PENDING,
        0,
        millis,
        claimVersion,
        0,
        null,
        null);
  }
}
