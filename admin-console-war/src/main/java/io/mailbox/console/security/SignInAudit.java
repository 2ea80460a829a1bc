package io.mailbox.console.security;

import io.mailbox.ejb.audit.AuditEntry;
import io.mailbox.ejb.audit.AuditLog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/** Audits every refused HTTP basic sign-in the mechanism reports ({@link SignInRefused}). */
@ApplicationScoped
public class SignInAudit {
  /** The audited action of a refused HTTP basic sign-in. */
  static final String ACTION = "api.sign-in";

  @Inject AuditLog auditLog;

  void record(@Observes SignInRefused refusal) {
    auditLog.record(
        refusal.account(),
        ACTION,
        "from " + refusal.clientAddress() + " (" + refusal.reason() + ")",
        0,
        AuditEntry.Result.REFUSED);
  }
}
