package io.mailbox.ejb.operations;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.ejb.audit.AuditEntry;
import io.mailbox.ejb.audit.AuditLog;
import io.mailbox.ejb.inbox.InboxRow;
import io.mailbox.ejb.inbox.InboxStatus;
import io.mailbox.ejb.inbox.JtaInboxTransactions;
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
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigProvider;

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
public class OutboxOperations {
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

  /**
   * Releases parked inbox rows: retry deletes the marker and re-publishes the stored envelope to
   * its topic's address (every consumer of that address sees it again; inbox consumers skip what
   * they processed); discard keeps it skipped.
   */
  @RolesAllowed(CallerRoles.OPERATOR)
  public int releaseInbox(String actor, List<InboxRow> rows, boolean retry) {
    int released = 0;
    for (InboxRow row : rows) {
      Optional<String> envelope = inbox.release(row.id(), retry, clock.millis());
      if (envelope.isEmpty()) {
        continue;
      }
      if (retry && !envelope.get().isEmpty()) {
        try (MailboxConnection connection = connections.getConnection()) {
          connection.post(
              MailMessage.to(addressFor(row.topic()))
                  .id(row.envelopeId())
                  .body(envelope.get())
                  .build());
        }
      }
      released++;
    }
    audit.record(
        actor,
        retry ? "inbox.release-retry" : "inbox.release-discard",
        rows.size() + " row(s)",
        released,
        released == rows.size() ? AuditEntry.Result.SUCCEEDED : AuditEntry.Result.FAILED);
    return released;
  }

  private static String addressFor(String topic) {
    var config = ConfigProvider.getConfig();
    return config
        .getOptionalValue("mailbox.outbox.route." + topic, String.class)
        .orElseGet(
            () ->
                config
                    .getOptionalValue("mailbox.outbox.address-template", String.class)
                    .orElse("mem:events@mailbox/{topic}")
                    .replace("{topic}", topic));
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
