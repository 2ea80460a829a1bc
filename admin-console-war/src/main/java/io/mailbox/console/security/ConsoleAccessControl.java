package io.mailbox.console.security;

import com.vaadin.flow.server.VaadinRequest;
import com.vaadin.flow.server.VaadinService;
import com.vaadin.flow.server.VaadinSession;
import io.mailbox.ejb.audit.AuditEntry;
import io.mailbox.ejb.audit.AuditLog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * Signs operators in and out of the console. The signed-in name lives in the Vaadin session; every
 * sign-in attempt is audited (the password never is).
 */
@ApplicationScoped
public class ConsoleAccessControl {
  private static final String SESSION_ATTRIBUTE = ConsoleAccessControl.class.getName() + ".user";

  @Inject ConsoleAccount account;
  @Inject AuditLog auditLog;

  /** Returns true and signs the current session in when the credentials match. */
  public boolean signIn(String username, String password) {
    boolean accepted = account.matches(username, password);
    String actor = username == null || username.isBlank() ? "(blank)" : username.strip();
    auditLog.record(
        actor,
        "console.sign-in",
        null,
        0,
        accepted ? AuditEntry.Result.SUCCEEDED : AuditEntry.Result.REFUSED);
    if (accepted) {
      // A new session id on sign-in, so an id planted before it cannot ride the signed-in session.
      VaadinRequest request = VaadinRequest.getCurrent();
      if (request != null) {
        VaadinService.reinitializeSession(request);
      }
      VaadinSession.getCurrent().setAttribute(SESSION_ATTRIBUTE, account.username());
    }
    return accepted;
  }

  public Optional<String> signedInUser() {
    VaadinSession session = VaadinSession.getCurrent();
    return session == null
        ? Optional.empty()
        : Optional.ofNullable((String) session.getAttribute(SESSION_ATTRIBUTE));
  }

  public boolean isSignedIn() {
    return signedInUser().isPresent();
  }

  /** Ends the whole HTTP session, then the page reloads to the sign-in view. */
  public void signOut() {
    VaadinSession session = VaadinSession.getCurrent();
    session.setAttribute(SESSION_ATTRIBUTE, null);
    session.getSession().invalidate();
  }
}
