package io.mailbox.ejb.outbox;

import io.mailbox.connector.api.Capabilities;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.tracing.MessageTracing;
import io.mailbox.tracing.MessageTracing.TracedSpan;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Publishes a row through the adapter: the message id is the envelope id, so every re-send of a row
 * carries the same id and a consumer inbox drops the repeat. Called outside any transaction, so the
 * post is handed to the provider at once. A row written inside a trace is published in a publish
 * span of that trace (the writer's context, stored in the row), and its message carries that span.
 */
final class MailboxOutboxPublisher implements OutboxPublisher {
  private final MailboxConnectionFactory connections;
  // Per scheme: what a transport declares never changes while the adapter runs.
  private final Map<String, Boolean> orderedBatches = new ConcurrentHashMap<>();

  MailboxOutboxPublisher(MailboxConnectionFactory connections) {
    this.connections = connections;
  }

  @Override
  public boolean keepsOrderWithinCall(String address) {
    MailAddress parsed = MailAddress.parse(address);
    return orderedBatches.computeIfAbsent(
        parsed.scheme(),
        scheme -> {
          try (MailboxConnection connection = connections.getConnection()) {
            return connection.can(Capabilities.ORDERED_BATCH, parsed);
          }
        });
  }

  @Override
  public void publish(OutboxRow row) {
    List<Exception> failures = publishAll(List.of(row));
    if (failures.get(0) != null) {
      throw (RuntimeException) failures.get(0);
    }
  }

  /**
   * One post call for the rows: if it fails, every row is reported failed (some may have been
   * stored; the relay retries them and the consumer inbox drops the repeats).
   */
  @Override
  public List<Exception> publishAll(List<OutboxRow> rows) {
    MessageTracing tracing = MessageTracing.lookup();
    List<TracedSpan> spans = new ArrayList<>(rows.size());
    List<MailMessage> messages = new ArrayList<>(rows.size());
    for (OutboxRow row : rows) {
      MailMessage message = row.toMessage();
      TracedSpan span = tracing.startPublish(message.to().toString(), row.id(), message.headers());
      spans.add(span);
      messages.add(span.carriedBy(message));
    }
    RuntimeException failure = null;
    try (MailboxConnection connection = connections.getConnection()) {
      connection.postAll(messages);
    } catch (RuntimeException e) {
      failure = e;
    }
    for (TracedSpan span : spans) {
      span.end(failure == null ? "published" : "failed", failure);
    }
    return Collections.nCopies(rows.size(), failure);
  }
}
