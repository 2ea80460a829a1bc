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
 * Signs people in and out of the console, with the accounts and roles of {@link Members} (the same
 * as the admin API's). Who is signed in, and in which roles, lives in the Vaadin session; every
 * sign-in attempt is audited (the password never is), and so is every refused change.
 */
@ApplicationScoped
public class ConsoleAccessControl {
  private static final String SESSION_ATTRIBUTE = ConsoleAccessControl.class.getName() + ".user";

  /** Who is signed in to a session, and in which roles. */
  public record SignedIn(String username, java.util.Set<String> roles)
      implements java.io.Serializable {
    public boolean isOperator() {
      return roles.contains(Roles.OPERATOR);
    }
  }

  @Inject Members members;
  @Inject AuditLog auditLog;

  /** Returns true and signs the current session in when the credentials match an account. */
  public boolean signIn(String username, String password) {
    Optional<Members.Member> member = members.authenticate(username, password);
    String actor = username == null || username.isBlank() ? "(blank)" : username.strip();
    auditLog.record(
        actor,
        "console.sign-in",
        null,
        0,
        member.isPresent() ? AuditEntry.Result.SUCCEEDED : AuditEntry.Result.REFUSED);
    if (member.isPresent()) {
      // A new session id on sign-in, so an id planted before it cannot ride the signed-in session.
      VaadinRequest request = VaadinRequest.getCurrent();
      if (request != null) {
        VaadinService.reinitializeSession(request);
      }
      VaadinSession.getCurrent()
          .setAttribute(
              SESSION_ATTRIBUTE,
              new SignedIn(
                  member.get().account().username(), java.util.Set.copyOf(member.get().roles())));
    }
    return member.isPresent();
  }

  public Optional<SignedIn> signedIn() {
    VaadinSession session = VaadinSession.getCurrent();
    return session == null
        ? Optional.empty()
        : Optional.ofNullable((SignedIn) session.getAttribute(SESSION_ATTRIBUTE));
  }

  public Optional<String> signedInUser() {
    return signedIn().map(SignedIn::username);
  }

  public boolean isSignedIn() {
    return signedIn().isPresent();
  }

  /** Whether the session may change things; views hide controls with it, actions re-check it. */
  public boolean isOperator() {
    return signedIn().map(SignedIn::isOperator).orElse(false);
  }

  /**
   * The operator's name, for an action about to change something; refuses (and audits the refusal)
   * when the session is not an operator's, whatever the page showed.
   */
  public String requireOperator(String action) {
    SignedIn who = signedIn().orElseThrow(() -> new SecurityException("MBX-4001 not signed in"));
    if (!who.isOperator()) {
      auditLog.record(who.username(), action, null, 0, AuditEntry.Result.REFUSED);
      throw new SecurityException("MBX-4003 " + action + " needs the operator role");
    }
    return who.username();
  }

  /** Ends the whole HTTP session, then the page reloads to the sign-in view. */
  public void signOut() {
    VaadinSession session = VaadinSession.getCurrent();
    session.setAttribute(SESSION_ATTRIBUTE, null);
    session.getSession().invalidate();
  }
}
