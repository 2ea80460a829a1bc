package io.mailbox.connector.kernel;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.spi.NarrowsCapabilities;
import io.mailbox.connector.spi.Peeking;
import io.mailbox.connector.spi.Transport;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * How long the oldest message waiting at an address has waited: {@code <scheme>.oldestUnreadMs} in
 * its status, the time since the first queued copy passed the send boundary (its {@code
 * mbx-sent-at} stamp). The thresholds' {@code oldest-unread} measure reads it: a backlog that is
 * small but never read is what a backlog count misses.
 *
 * <p>Measured once for every transport that can peek (the head of its queue, one copy, changing
 * nothing), and only when something is unread: no read at all for an empty address, which then
 * reports 0. Not measured (the key absent, never a zero that looks fine) when the transport cannot
 * peek ({@code amqp:}), when the peek fails or shows nothing although the count says something
 * waits (a {@code nats:} message delivered and given back is counted but not shown), or when the
 * copy carries no stamp (a foreign producer's). A transport that measures it itself puts the key in
 * its status; it is then left as it is.
 */
final class OldestUnread {
  private static final Logger LOG = Logger.getLogger(OldestUnread.class.getName());

  /** The key's suffix after the scheme. */
  static final String SUFFIX = ".oldestUnreadMs";

  private final Transport transport;
  private boolean peekFailed;

  private OldestUnread(Transport transport) {
    this.transport = transport;
  }

  /** {@code status} with the age of the address's oldest unread message when it can be told. */
  static AddressStatus added(Transport transport, AddressStatus status) {
    return new OldestUnread(transport).measured(status);
  }

  /** Each status measured, the peeks ending at the first that fails. */
  static List<AddressStatus> addedToAll(Transport transport, List<AddressStatus> statuses) {
    OldestUnread listing = new OldestUnread(transport);
    return statuses.stream().map(listing::measured).toList();
  }

  private AddressStatus measured(AddressStatus status) {
    String key = status.address().scheme() + SUFFIX;
    if (!(transport instanceof Peeking peeking)
        // A narrowed peek (amqp:'s look into a dead-letter queue) is an operator's tool with a
        // cost on the broker, not something to run on every 5 s reading.
        || transport instanceof NarrowsCapabilities
        || status.state() == AddressState.UNKNOWN
        || status.state() == AddressState.OFFLINE // its store is known to be away: no peek
        || Boolean.FALSE.equals(status.exists())
        || status.extensions().containsKey(key)) {
      return status;
    }
    if (status.unreadCount() == 0) {
      return with(status, key, 0);
    }
    Optional<Instant> sentAt = peekFailed ? Optional.empty() : headSentAt(peeking, status);
    if (sentAt.isEmpty()) {
      return status;
    }
    Instant now = transport.clock().instant();
    return with(status, key, Math.max(0, Duration.between(sentAt.get(), now).toMillis()));
  }

  private Optional<Instant> headSentAt(Peeking peeking, AddressStatus status) {
    List<MailMessage> head;
    try {
      head = peeking.peekQueued(status.address(), 1);
    } catch (RuntimeException e) {
      // A store that failed is reported by its own probe; this reading is simply not measured.
      LOG.fine(() -> status.address() + ": oldest unread not measured (" + e.getClass() + ")");
      peekFailed = true;
      return Optional.empty();
    }
    try {
      return head.isEmpty()
          ? Optional.empty()
          : head.get(0).header(SystemHeaders.SENT_AT).map(Instant::parse);
    } catch (DateTimeParseException e) {
      return Optional.empty(); // a stamp nobody here wrote: not measured
    }
  }

  private static AddressStatus with(AddressStatus status, String key, long millis) {
    Map<String, Object> extensions = new HashMap<>(status.extensions());
    extensions.put(key, millis);
    return new AddressStatus(
        status.address(),
        status.state(),
        status.exists(),
        status.unreadCount(),
        status.inFlightCount(),
        status.lastActivity(),
        extensions);
  }
}
