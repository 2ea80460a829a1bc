package io.mailbox.ejb.outbox;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.ejb.event.IntegrationEventEnvelope;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Walks the pending set in laps, keyset-paged on position, one row at a time: validate, claim
 * (compare-and-set on the version, with a lease), fence (is there still time to publish and write
 * the outcome?), publish, mark sent. Plain Java over {@link OutboxStore} and {@link
 * OutboxPublisher}, so its rules are unit-tested without a database.
 *
 * <ul>
 *   <li>A failed row, a row backing off, a row held by another relay, or one whose claim or status
 *       write was lost <b>blocks its ordering key</b> for the rest of the lap: a later row of that
 *       key is never published first. Unkeyed rows never block.
 *   <li>{@code scanLimit} and {@code publishLimit} bound a sweep; the lap carries over to the next
 *       sweep, so a blocked key cannot starve the keys behind it.
 *   <li>A failed publish backs off exponentially; after {@code maxAttempts} the row is failed. A
 *       row that cannot be decoded is failed at once as {@code invalid-row}.
 * </ul>
 *
 * At least once, never exactly once: a relay that pauses after the fence can publish a row another
 * relay publishes too; the envelope id (the message id) lets a consumer inbox drop the repeat.
 */
public final class OutboxRelay {
  private static final Logger LOG = Logger.getLogger(OutboxRelay.class.getName());
  static final String INVALID_ROW = "invalid-row";

  private final OutboxStore store;
  private final OutboxPublisher publisher;
  private final RelaySettings settings;
  private final Clock clock;
  private final String relayId;
  private final RelayListener listener;

  // The lap: where the scan stands and which keys are blocked until it ends. Guarded by "this".
  private String cursor;
  private final Set<String> blockedKeys = new HashSet<>();

  public OutboxRelay(
      OutboxStore store,
      OutboxPublisher publisher,
      RelaySettings settings,
      Clock clock,
      String relayId) {
    this(store, publisher, settings, clock, relayId, RelayListener.NONE);
  }

  public OutboxRelay(
      OutboxStore store,
      OutboxPublisher publisher,
      RelaySettings settings,
      Clock clock,
      String relayId,
      RelayListener listener) {
    this.listener = listener;
    this.store = store;
    this.publisher = publisher;
    this.settings = settings;
    this.clock = clock;
    this.relayId = relayId;
  }

  /** One sweep: at most {@code scanLimit} rows examined and {@code publishLimit} published. */
  public synchronized SweepResult sweep() {
    long deadline = clock.millis() + settings.sweepDeadline().toMillis();
    int scanned = 0;
    int published = 0;
    int retried = 0;
    int failed = 0;
    int blocked = 0;
    int overlaps = 0;
    boolean lapEnded = false;
    sweep:
    while (scanned < settings.scanLimit() && published < settings.publishLimit()) {
      List<OutboxRow> page = store.page(cursor, Math.min(100, settings.scanLimit() - scanned));
      if (page.isEmpty()) {
        cursor = null;
        blockedKeys.clear();
        lapEnded = true;
        break;
      }
      for (OutboxRow row : page) {
        if (scanned >= settings.scanLimit() || published >= settings.publishLimit()) {
          break sweep;
        }
        long now = clock.millis();
        // A row starts only while the claim, publish and status write still fit in the sweep.
        if (now + settings.reservedPerRow().toMillis() > deadline) {
          break sweep;
        }
        scanned++;
        cursor = row.position();
        String key = row.blockingKey();
        if (key != null && blockedKeys.contains(key)) {
          blocked++;
          continue;
        }
        if (row.status() == OutboxStatus.FAILED
            || row.availableAt() > now
            || row.leaseUntil() + settings.maxClockSkew().toMillis() > now) {
          block(key);
          blocked++;
          continue;
        }
        switch (relay(row, now)) {
          case SENT -> published++;
          case RETRY -> {
            retried++;
            block(key);
          }
          case FAILED -> {
            failed++;
            block(key);
          }
          case LOST -> {
            overlaps++;
            block(key);
          }
          case NOT_CLAIMED -> {
            blocked++;
            block(key);
          }
        }
      }
    }
    return new SweepResult(scanned, published, retried, failed, blocked, overlaps, lapEnded);
  }

  private enum Outcome {
    SENT,
    RETRY,
    FAILED,
    LOST,
    NOT_CLAIMED
  }

  private Outcome relay(OutboxRow row, long now) {
    long leaseUntil = now + settings.claimLease().toMillis();
    if (!store.claim(row.id(), row.claimVersion(), leaseUntil)) {
      return Outcome.NOT_CLAIMED; // ordinary contention: another relay took it
    }
    long held = row.claimVersion() + 1;
    String invalid = invalidReason(row);
    if (invalid != null) {
      LOG.warning(
          () ->
              "Outbox row " + row.id() + " is invalid (" + invalid + "): failed, never published");
      return settleFailed(row, held, row.attempts(), INVALID_ROW + ": " + invalid);
    }
    // The fence: publish only while the claim still covers the publish, the status write and skew.
    if (clock.millis() + settings.reservedPerRow().toMillis() > leaseUntil) {
      LOG.warning(
          () ->
              "Outbox relay "
                  + relayId
                  + " fenced row "
                  + row.id()
                  + ": its claim would expire mid-publish");
      listener.overlap("fenced");
      return Outcome.LOST;
    }
    try {
      publisher.publish(row);
    } catch (Exception e) {
      listener.publishFailed(row.topic());
      int attempts = row.attempts() + 1;
      String error = bounded(e);
      if (attempts >= settings.maxAttempts()) {
        LOG.log(
            Level.WARNING,
            "Outbox row {0} failed after {1} attempts: {2}",
            new Object[] {row.id(), attempts, error});
        return settleFailed(row, held, attempts, error);
      }
      long next = clock.millis() + settings.backoffAfter(attempts).toMillis();
      if (store.markRetry(row.id(), held, attempts, next, error)) {
        return Outcome.RETRY;
      }
      listener.overlap("claim-lost");
      return Outcome.LOST;
    }
    // Mark SENT only after the provider accepted it: a crash in between re-sends, never loses.
    if (!store.markSent(row.id(), held, clock.millis(), relayId)) {
      LOG.warning(
          () ->
              "Outbox relay "
                  + relayId
                  + " lost the claim on "
                  + row.id()
                  + " after publishing it (duplicate possible)");
      listener.overlap("claim-lost");
      return Outcome.LOST;
    }
    listener.published(row.topic());
    return Outcome.SENT;
  }

  private Outcome settleFailed(OutboxRow row, long held, int attempts, String error) {
    if (store.markFailed(row.id(), held, attempts, error)) {
      listener.poisoned(row.topic());
      return Outcome.FAILED;
    }
    listener.overlap("claim-lost");
    return Outcome.LOST;
  }

  /** Why a row cannot be published, or {@code null} when it can. */
  private String invalidReason(OutboxRow row) {
    if (row.topic() == null
        || row.topic().isEmpty()
        || row.topic().getBytes(StandardCharsets.UTF_8).length > 255
        || row.topic().chars().anyMatch(Character::isISOControl)) {
      return "topic is empty, too long or has control characters";
    }
    if (row.envelope().getBytes(StandardCharsets.UTF_8).length > settings.maxEnvelopeBytes()) {
      return "envelope larger than " + settings.maxEnvelopeBytes() + " bytes";
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
    if (row.claimVersion() < 0 || row.claimVersion() >= Long.MAX_VALUE - 1) {
      return "claim version out of range";
    }
    return null;
  }

  private void block(String key) {
    if (key != null) {
      blockedKeys.add(key);
    }
  }

  /** The failure's type and message without control characters, cut to 1024 characters. */
  static String bounded(Throwable failure) {
    String text =
        failure.getClass().getName()
            + (failure.getMessage() == null ? "" : ": " + failure.getMessage());
    text = text.replaceAll("\\p{Cntrl}", " ");
    return text.length() <= 1024 ? text : text.substring(0, 1024);
  }

  /** Deletes settled rows older than the retention, at most {@code limit} per status. */
  public int purge(int limit) {
    return store.purgeSettled(clock.millis() - settings.retainSent().toMillis(), limit);
  }
}
