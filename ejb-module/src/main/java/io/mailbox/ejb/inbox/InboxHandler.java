package io.mailbox.ejb.inbox;

import io.mailbox.ejb.event.IntegrationEventEnvelope;

/**
 * What a consumer does with an event. It runs inside the inbox's transaction: its JPA writes commit
 * with the marker, or not at all. Effects outside the database (an email, an HTTP call) are at
 * least once: they may run again on a redelivery.
 *
 * @param <T> the parsed payload
 */
@FunctionalInterface
public interface InboxHandler<T> {
  void handle(T data, IntegrationEventEnvelope envelope) throws Exception;
}
