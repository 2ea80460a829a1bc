package io.mailbox.ejb.outbox;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.ejb.event.IntegrationEventEnvelope;
import io.mailbox.ejb.event.TopicName;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Whether the relay may claim and publish a row at all. A row that fails here is failed at once as
 * {@code invalid-row}: retrying cannot make it valid.
 */
final class RowValidity {
  private RowValidity() {}

  /** Why a row cannot be published, or {@code null} when it can. */
  static String problem(OutboxRow row, int maxEnvelopeBytes) {
    Optional<String> badTopic = TopicName.problem(row.topic());
    if (badTopic.isPresent()) {
      return badTopic.get();
    }
    if (row.envelope().getBytes(StandardCharsets.UTF_8).length > maxEnvelopeBytes) {
      return "envelope larger than " + maxEnvelopeBytes + " bytes";
    }
    try {
      MailAddress.parse(row.address());
      IntegrationEventEnvelope envelope = IntegrationEventEnvelope.parse(row.envelope());
      if (!envelope.id().equals(row.id())) {
        return "envelope id does not match the row id";
      }
    } catch (RuntimeException e) {
      return e.getMessage();
    }
    return null;
  }

  /**
   * Whether the row can be claimed and its held version written: claim and status writes add one,
   * and on a real database an overflow fails the whole claim transaction.
   */
  static boolean claimVersionInRange(OutboxRow row) {
    return row.claimVersion() >= 0 && row.claimVersion() < Long.MAX_VALUE - 1;
  }
}
