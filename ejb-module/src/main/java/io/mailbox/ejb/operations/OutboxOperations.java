package io.mailbox.ejb.operations;

import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.ejb.audit.AuditEntry;
import io.mailbox.ejb.audit.AuditLog;
import io.mailbox.ejb.inbox.InboxRow;
import io.mailbox.ejb.inbox.InboxStatus;
import io.mailbox.ejb.inbox.JtaInboxTransactions;
import io.mailbox.ejb.inbox.ParkedDeliveries;
import io.mailbox.ejb.outbox.OutboxRow;
import io.mailbox.ejb.outbox.OutboxStatus;
import io.mailbox.ejb.outbox.TransactionalOutboxStore;
import jakarta.annotation.Resource;
import jakarta.annotation.security.DeclareRoles;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptors;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * What operators do to the outbox and the inbox: look, and release what is stuck. Every release is
 * audited with who (the caller the container authenticated), what and how many. Roles are checked
 * here, whoever calls: looking needs {@value CallerRoles#VIEWER} or {@value CallerRoles#OPERATOR},
 * releasing needs {@value CallerRoles#OPERATOR}; the summary is open to the health check.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
@DeclareRoles({CallerRoles.VIEWER, CallerRoles.OPERATOR})
@RolesAllowed({CallerRoles.VIEWER, CallerRoles.OPERATOR})
@Interceptors(RefusedOperation.Interceptor.class)
public class OutboxOperations {
  private static final Logger LOG = Logger.getLogger(OutboxOperations.class.getName());

  @EJB private TransactionalOutboxStore outbox;
  @EJB private JtaInboxTransactions inbox;
  @EJB private AuditLog audit;
  @Resource private SessionContext context;

  @Inject private MailboxConnectionFactory connections;

  private final Clock clock = Clock.systemUTC();

  /** Counts and the oldest pending row's age. */
  @PermitAll
  public OutboxSummary summary() {
    Optional<Long> oldest = outbox.oldestPendingCreatedAt();
    return new OutboxSummary(
        outbox.count(OutboxStatus.PENDING),
        outbox.count(OutboxStatus.FAILED),
        outbox.list(OutboxStatus.FAILED, 1000).stream().filter(r -> isInvalid(r)).count(),
        oldest
            .map(created -> Duration.ofMillis(Math.max(0, clock.millis() - created)))
            .orElse(null),
        inbox.count(InboxStatus.PARKED));
  }

  static boolean isInvalid(OutboxRow row) {
    return row.lastError() != null && row.lastError().startsWith("invalid-row");
  }

  public List<OutboxRow> rows(OutboxStatus status, int limit) {
    return outbox.list(status, Math.max(1, Math.min(limit, 1000)));
  }

  /**
   * Releases failed rows: retry returns them to pending with zero attempts, discard settles them.
   */
  @RolesAllowed(CallerRoles.OPERATOR)
  public int releaseOutbox(List<String> ids, boolean retry) {
    return AuditedChange.run(
        audit,
        caller(),
        retry ? "outbox.release-retry" : "outbox.release-discard",
        String.join(",", ids),
        () -> {
          int released = 0;
          for (String id : ids) {
            if (outbox.release(id, retry, clock.millis())) {
              released++;
            }
          }
          return released;
        },
        released ->
            new AuditedChange.Outcome(
                released,
                released == ids.size() ? AuditEntry.Result.SUCCEEDED : AuditEntry.Result.FAILED));
  }

  /** Who is calling, as the container authenticated them. */
  private String caller() {
    return context.getCallerPrincipal().getName();
  }

  public List<InboxRow> parkedInbox(int limit) {
    return inbox.parked(Math.max(1, Math.min(limit, 1000)));
  }

  /** Releases parked inbox rows and returns how many were released (see {@link #releaseParked}). */
  @RolesAllowed(CallerRoles.OPERATOR)
  public int releaseInbox(List<InboxRow> rows, boolean retry) {
    return (int)
        releaseParked(rows.stream().map(InboxRow::id).toList(), retry).stream()
            .filter(ParkedDeliveries.Outcome::released)
            .count();
  }

  /**
   * Releases parked inbox deliveries, each on its own: retry re-posts the stored envelope to the
   * address it came from, then the marker is gone (every consumer of that address sees it again;
   * inbox consumers skip what they processed); discard keeps it skipped. A retry that cannot be
   * delivered (no recorded address: MBX-3005; no stored envelope: MBX-3006; the provider refused)
   * leaves the delivery parked and says why (logged too). Audited once, recorded before it runs, as
   * failed unless every row was released.
   */
  @RolesAllowed(CallerRoles.OPERATOR)
  public List<ParkedDeliveries.Outcome> releaseParked(List<String> ids, boolean retry) {
    ParkedDeliveries parked =
        new ParkedDeliveries(
            inbox,
            message -> {
              try (MailboxConnection connection = connections.getConnection()) {
                connection.post(message);
              }
            },
            clock);
    return AuditedChange.run(
        audit,
        caller(),
        retry ? "inbox.release-retry" : "inbox.release-discard",
        String.join(",", ids),
        () -> ids.stream().map(id -> released(parked.release(id, retry))).toList(),
        outcomes -> {
          long released = outcomes.stream().filter(ParkedDeliveries.Outcome::released).count();
          return new AuditedChange.Outcome(
              released,
              released == ids.size() ? AuditEntry.Result.SUCCEEDED : AuditEntry.Result.FAILED);
        });
  }

  private static ParkedDeliveries.Outcome released(ParkedDeliveries.Outcome outcome) {
    if (!outcome.released()) {
      LOG.info(
          () -> "Parked inbox delivery " + outcome.id() + " not released: " + outcome.reason());
    }
    return outcome;
  }

  /**
   * @param pending rows waiting to be relayed
   * @param failed rows given up (max attempts or invalid); they block their key until released
   * @param invalid of those, the undecodable ones
   * @param oldestPendingAge age of the oldest pending row, {@code null} when none
   * @param parkedInbox parked inbox deliveries
   */
  public record OutboxSummary(
      long pending, long failed, long invalid, Duration oldestPendingAge, long parkedInbox) {}
}
