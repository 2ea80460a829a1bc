package io.mailbox.console.api;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.Snapshot;
import io.mailbox.ejb.audit.AuditEntry;
import io.mailbox.ejb.operations.OutboxOperations;
import io.mailbox.ejb.outbox.OutboxRow;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;
import java.util.Map;

/**
 * How the API shows the product's objects as JSON: explicit fields, so the wire format does not
 * change when a record grows. Message bodies are never included whole (a bounded preview only).
 */
final class JsonViews {
  static final int BODY_PREVIEW_CHARS = 512;

  private JsonViews() {}

  static JsonObject snapshot(Snapshot snapshot) {
    JsonArrayBuilder addresses = Json.createArrayBuilder();
    snapshot.addresses().forEach(a -> addresses.add(status(a)));
    JsonArrayBuilder unsupported = Json.createArrayBuilder();
    snapshot.unsupportedProviders().forEach(unsupported::add);
    JsonArrayBuilder providers = Json.createArrayBuilder();
    snapshot
        .providers()
        .forEach(
            p ->
                providers.add(
                    Json.createObjectBuilder()
                        .add("scheme", p.scheme())
                        .add("started", p.started())
                        .add("reachability", p.reachability().label())));
    return Json.createObjectBuilder()
        .add("state", snapshot.state().label())
        .add("takenAt", snapshot.takenAt().toString())
        .add("addressCount", snapshot.addressCount())
        .add("unread", snapshot.unreadCount())
        .add("inFlight", snapshot.inFlightCount())
        .add("unsupportedProviders", unsupported)
        .add("providers", providers)
        .add("addresses", addresses)
        .build();
  }

  static JsonObject status(AddressStatus status) {
    JsonObjectBuilder extensions = Json.createObjectBuilder();
    for (Map.Entry<String, Object> e : status.extensions().entrySet()) {
      Object value = e.getValue();
      if (value instanceof Number n) {
        extensions.add(e.getKey(), n.longValue());
      } else if (value instanceof Boolean b) {
        extensions.add(e.getKey(), b);
      } else {
        extensions.add(e.getKey(), String.valueOf(value));
      }
    }
    JsonObjectBuilder json =
        Json.createObjectBuilder()
            .add("address", status.address().toString())
            .add("provider", status.address().scheme())
            .add("state", status.state().label())
            .add("unread", status.unreadCount())
            .add("inFlight", status.inFlightCount())
            .add("extensions", extensions);
    if (status.exists() == null) {
      json.addNull("exists");
    } else {
      json.add("exists", status.exists());
    }
    if (status.lastActivity() == null) {
      json.addNull("lastActivity");
    } else {
      json.add("lastActivity", status.lastActivity().toString());
    }
    return json.build();
  }

  static JsonObject message(MailMessage message) {
    JsonObjectBuilder headers = Json.createObjectBuilder();
    message.headers().forEach(headers::add);
    String body = message.body();
    return Json.createObjectBuilder()
        .add("id", message.id())
        .add("key", message.sendId().orElse(""))
        .add("to", message.to().toString())
        .add("headers", headers)
        .add(
            "bodyPreview",
            body.length() <= BODY_PREVIEW_CHARS ? body : body.substring(0, BODY_PREVIEW_CHARS))
        .add("bodyLength", body.length())
        .build();
  }

  static JsonObject outbox(OutboxOperations.OutboxSummary summary) {
    JsonObjectBuilder json =
        Json.createObjectBuilder()
            .add("pending", summary.pending())
            .add("failed", summary.failed())
            .add("invalid", summary.invalid())
            .add("parkedInbox", summary.parkedInbox());
    if (summary.oldestPendingAge() == null) {
      json.addNull("oldestPendingAgeMillis");
    } else {
      json.add("oldestPendingAgeMillis", summary.oldestPendingAge().toMillis());
    }
    return json.build();
  }

  static JsonObject row(OutboxRow row) {
    JsonObjectBuilder json =
        Json.createObjectBuilder()
            .add("id", row.id())
            .add("topic", row.topic())
            .add("address", row.address())
            .add("status", row.status().name().toLowerCase(java.util.Locale.ROOT))
            .add("attempts", row.attempts())
            .add("createdAt", java.time.Instant.ofEpochMilli(row.createdAt()).toString());
    if (row.orderingKey() != null) {
      json.add("orderingKey", row.orderingKey());
    }
    if (row.lastError() != null) {
      json.add("lastError", row.lastError());
    }
    return json.build();
  }

  static JsonObject audit(AuditEntry entry) {
    return Json.createObjectBuilder()
        .add("id", entry.id())
        .add("at", entry.occurredAt().toString())
        .add("actor", entry.actor())
        .add("action", entry.action())
        .add("target", entry.target() == null ? "" : entry.target())
        .add("affected", entry.affected())
        .add("result", entry.result().name().toLowerCase(java.util.Locale.ROOT))
        .build();
  }

  static <T> JsonArrayBuilder array(
      List<T> items, java.util.function.Function<T, JsonObject> view) {
    JsonArrayBuilder array = Json.createArrayBuilder();
    items.forEach(item -> array.add(view.apply(item)));
    return array;
  }
}
