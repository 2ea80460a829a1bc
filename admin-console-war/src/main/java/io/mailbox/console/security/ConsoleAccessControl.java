package io.mailbox.console.security;

import com.vaadin.flow.server.VaadinRequest;
import com.vaadin.flow.server.VaadinResponse;
import com.vaadin.flow.server.VaadinService;
import com.vaadin.flow.server.VaadinServletRequest;
import com.vaadin.flow.server.VaadinServletResponse;
import com.vaadin.flow.server.VaadinSession;
import io.mailbox.connector.api.ErrorCode;
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
  private static final java.util.logging.Logger LOG =
      java.util.logging.Logger.getLogger(ConsoleAccessControl.class.getName());

  private static final String SESSION_ATTRIBUTE = ConsoleAccessControl.class.getName() + ".user";

  /** Who is signed in to a session, and in which roles. */
  public record SignedIn(String username, java.util.Set<String> roles)
      implements java.io.Serializable {
    public boolean isOperator() {
      return roles.contains(Roles.OPERATOR);
    }
  }

  @Inject AuditLog auditLog;
  @Inject jakarta.security.enterprise.SecurityContext securityContext;
  @Inject SignInThrottle throttle;

  /**
   * Signs the current session in through Jakarta Security ({@link MailboxAuthenticationMechanism}
   * registers the caller with the HTTP session); returns whether the credentials were accepted.
   */
  public boolean signIn(String username, String password) {
    String actor = username == null || username.isBlank() ? "(blank)" : username.strip();
    VaadinRequest request = VaadinRequest.getCurrent();
    boolean accepted = false;
    if (username != null && password != null && request instanceof VaadinServletRequest servlet) {
      // A new session id before signing in, so an id planted earlier cannot ride the new session.
      VaadinService.reinitializeSession(request);
      jakarta.security.enterprise.AuthenticationStatus status =
          securityContext.authenticate(
              servlet.getHttpServletRequest(),
              ((VaadinServletResponse) VaadinResponse.getCurrent()).getHttpServletResponse(),
              jakarta.security.enterprise.authentication.mechanism.http.AuthenticationParameters
                  .withParams()
                  .credential(
                      new jakarta.security.enterprise.credential.UsernamePasswordCredential(
                          username.strip(), password))
                  .newAuthentication(true));
      accepted = status == jakarta.security.enterprise.AuthenticationStatus.SUCCESS;
      if (accepted) {
        SessionTimeouts.signedIn(servlet.getHttpServletRequest().getSession());
      }
    }
    String address = request == null ? "?" : request.getRemoteAddr();
    if (!accepted) {
      LOG.warning(
          ErrorCode.NOT_SIGNED_IN.code()
              + " sign-in refused: account '"
              + SignInRefused.of(username, address, "").account()
              + "' from "
              + address
              + " on the console page");
    }
    auditLog.record(
        SignInRefused.of(username, address, "").account(),
        "console.sign-in",
        accepted ? null : "from " + address,
        0,
        accepted ? AuditEntry.Result.SUCCEEDED : AuditEntry.Result.REFUSED);
    if (accepted) {
      java.security.Principal caller = securityContext.getCallerPrincipal();
      java.util.Set<String> roles = new java.util.TreeSet<>();
      for (String role : java.util.List.of(Roles.VIEWER, Roles.OPERATOR)) {
        if (securityContext.isCallerInRole(role)) {
          roles.add(role);
        }
      }
      VaadinSession.getCurrent()
          .setAttribute(
              SESSION_ATTRIBUTE,
              new SignedIn(caller == null ? actor : caller.getName(), java.util.Set.copyOf(roles)));
    }
    return accepted;
  }

  /**
   * How long sign-ins for this account from this client must wait (too many were refused), or empty
   * when the next one is checked at once.
   */
  public Optional<java.time.Duration> signInWait(String username) {
    VaadinRequest request = VaadinRequest.getCurrent();
    return throttle.waitBefore(
        username == null ? null : username.strip(),
        request == null ? "?" : request.getRemoteAddr(),
        java.time.Instant.now());
  }

  /**
   * Who is signed in: the session's record, and only while the container still authenticates the
   * same caller for this request (Jakarta Security is the source of truth).
   */
  public Optional<SignedIn> signedIn() {
    VaadinSession session = VaadinSession.getCurrent();
    if (session == null) {
      return Optional.empty();
    }
    SignedIn signedIn = (SignedIn) session.getAttribute(SESSION_ATTRIBUTE);
    VaadinRequest request = VaadinRequest.getCurrent();
    if (signedIn != null && request != null) {
      java.security.Principal caller = request.getUserPrincipal();
      if (caller == null || !caller.getName().equals(signedIn.username())) {
        return Optional.empty();
      }
    }
    return Optional.ofNullable(signedIn);
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
    SignedIn who =
        signedIn()
            .orElseThrow(
                () -> new SecurityException(ErrorCode.NOT_SIGNED_IN.code() + " not signed in"));
    if (!who.isOperator()) {
      auditLog.record(who.username(), action, null, 0, AuditEntry.Result.REFUSED);
      throw new SecurityException(
          ErrorCode.FORBIDDEN.code() + " " + action + " needs the operator role");
    }
    return who.username();
  }

  /** Ends the whole HTTP session, then the page reloads to the sign-in view. */
  public void signOut() {
    VaadinSession session = VaadinSession.getCurrent();
    session.setAttribute(SESSION_ATTRIBUTE, null);
    if (VaadinRequest.getCurrent() instanceof VaadinServletRequest servlet) {
      try {
        servlet.getHttpServletRequest().logout();
      } catch (jakarta.servlet.ServletException e) {
        // The session is invalidated below either way.
      }
    }
    session.getSession().invalidate();
  }
}
