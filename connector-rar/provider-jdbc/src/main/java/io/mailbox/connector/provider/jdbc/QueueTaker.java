package io.mailbox.connector.provider.jdbc;

import static io.mailbox.connector.provider.jdbc.JdbcSql.bind;
import static io.mailbox.connector.provider.jdbc.JdbcSql.hash;
import static io.mailbox.connector.provider.jdbc.JdbcSql.update;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.spi.Lease;
import io.mailbox.connector.spi.MessageJson;
import io.mailbox.connector.spi.SentAt;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Handing rows out: available rows (queued, or leased with their visibility timeout over) in write
 * order, each won by a compare-and-set so two servers never take the same row. Under a lease the
 * row becomes invisible until the lease ends; without one it is deleted (auto-ack is at most once).
 * A row whose time to live or delivery cap is spent is given up instead of handed out.
 */
final class QueueTaker {
  /** Where a spent copy goes: the kernel's give-up (dead letter, park, or drop). */
  interface GiveUp {
    void giveUp(MailAddress address, MailMessage copy, String reason, int deliveries);
  }

  // Taken when a row is free: queued, or leased with its visibility timeout over.
  private static final String AVAILABLE =
      "(STATE = 'READY' OR (STATE = 'LEASED' AND VISIBLE_AT <= ?))";

  /**
   * The oldest copies a take may have: the queued ones and those whose lease ran out, each read
   * from the (ADDRESS_HASH, STATE, SEQ) index in order and merged. Not one {@code WHERE ... AND
   * (STATE = 'READY' OR ...)}: PostgreSQL cannot read that in SEQ order from the index and sorted
   * the whole address instead, 193-343 ms per take with 1,000,000 copies queued against 0.13 ms for
   * this (EXPLAIN ANALYZE in docs/benchmarks.md, "A deep queue").
   */
  private static final String NEXT_AVAILABLE =
      "(SELECT COPY_KEY, MESSAGE, DELIVERIES, SEQ FROM MBX_QUEUE WHERE ADDRESS_HASH = ? AND"
          + " STATE = 'READY' ORDER BY SEQ LIMIT ?) UNION ALL (SELECT COPY_KEY, MESSAGE,"
          + " DELIVERIES, SEQ FROM MBX_QUEUE WHERE ADDRESS_HASH = ? AND STATE = 'LEASED' AND"
          + " VISIBLE_AT <= ? ORDER BY SEQ LIMIT ?) ORDER BY SEQ";

  private final JdbcSql db;
  private final Clock clock;
  private final int maxDeliveries;
  private final Duration timeToLive;
  private final GiveUp giveUp;

  QueueTaker(JdbcSql db, Clock clock, int maxDeliveries, Duration timeToLive, GiveUp giveUp) {
    this.db = db;
    this.clock = clock;
    this.maxDeliveries = maxDeliveries;
    this.timeToLive = timeToLive;
    this.giveUp = giveUp;
  }

  List<MailMessage> take(
      MailAddress address, int limit, Lease lease, UnaryOperator<MailMessage> handOut) {
    long now = clock.millis();
    List<String[]> candidates =
        db.run(
            c -> {
              try (PreparedStatement select = c.prepareStatement(NEXT_AVAILABLE)) {
                int wanted = limit * 2 + 8;
                String addressHash = hash(address);
                bind(select, addressHash, wanted, addressHash, now, wanted);
                select.setMaxRows(wanted);
                List<String[]> rows = new ArrayList<>();
                try (ResultSet result = select.executeQuery()) {
                  while (result.next()) {
                    rows.add(
                        new String[] {
                          result.getString(1),
                          result.getString(2),
                          Integer.toString(result.getInt(3))
                        });
                  }
                }
                return rows;
              }
            });
    List<MailMessage> taken = new ArrayList<>();
    for (String[] row : candidates) {
      if (taken.size() == limit) {
        break;
      }
      MailMessage stored = MessageJson.read(MessageJson.parse(row[1]));
      int deliveries = Integer.parseInt(row[2]);
      String spent = spentReason(stored, deliveries, lease != null);
      if (spent != null) {
        // Only the consumer whose delete wins dead-letters it: one give-up, one record — and the
        // delete commits only together with that record.
        db.inOneTransaction(
            () -> {
              if (db.run(
                      c ->
                          update(
                              c,
                              "DELETE FROM MBX_QUEUE WHERE COPY_KEY = ? AND " + AVAILABLE,
                              row[0],
                              now))
                  == 1) {
                giveUp.giveUp(address, stored, spent, deliveries);
              }
            });
        continue;
      }
      MailMessage copy = handOut.apply(stored);
      boolean won =
          lease == null
              // Auto-ack is at most once: the row is gone when it is handed out.
              ? db.run(
                      c ->
                          update(
                              c,
                              "DELETE FROM MBX_QUEUE WHERE COPY_KEY = ? AND " + AVAILABLE,
                              row[0],
                              now))
                  == 1
              : db.run(
                      c ->
                          update(
                              c,
                              "UPDATE MBX_QUEUE SET STATE = 'LEASED', LEASE_ID = ?, VISIBLE_AT = ?, DELIVERIES ="
                                  + " DELIVERIES + 1, MESSAGE = ?, UPDATED_AT = ? WHERE COPY_KEY = ? AND "
                                  + AVAILABLE,
                              lease.id(),
                              lease.expiresAt() == null
                                  ? Long.MAX_VALUE
                                  : lease.expiresAt().toEpochMilli(),
                              MessageJson.write(copy),
                              now,
                              row[0],
                              now))
                  == 1;
      if (won) {
        taken.add(copy);
      }
    }
    return taken;
  }

  /** Why a queued copy must not be handed out any more, or {@code null}. */
  private String spentReason(MailMessage stored, int deliveries, boolean leased) {
    if (!timeToLive.isZero()) {
      Instant sentAt =
          stored.header(SystemHeaders.SENT_AT).map(SentAt::parse).orElse(Instant.EPOCH);
      if (!sentAt.plus(timeToLive).isAfter(clock.instant())) {
        return "ttl";
      }
    }
    return leased && maxDeliveries > 0 && deliveries >= maxDeliveries ? "max-deliveries" : null;
  }
}
