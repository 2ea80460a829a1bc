package io.mailbox.console.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.security.auth.message.callback.CallerPrincipalCallback;
import jakarta.security.enterprise.AuthenticationStatus;
import jakarta.security.enterprise.authentication.mechanism.http.HttpAuthenticationMechanism;
import jakarta.security.enterprise.authentication.mechanism.http.HttpMessageContext;
import jakarta.security.enterprise.credential.Credential;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStoreHandler;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.logging.Logger;
import javax.security.auth.callback.Callback;

/**
 * Jakarta Security for the whole console application, one mechanism for both ways in:
 *
 * <ul>
 *   <li><b>the console's sign-in page</b> calls {@code SecurityContext.authenticate} with the typed
 *       credentials; a valid sign-in is registered with the HTTP session, so every later request of
 *       that session is authenticated as that caller with their roles;
 *   <li><b>scripts</b> send HTTP basic ({@code Authorization: Basic ...}) with every request; no
 *       session is created for them.
 * </ul>
 *
 * A constrained resource ({@code /api/*}, web.xml) is authenticated by HTTP basic only: a console
 * session cookie alone never authorizes it, so a page on another site cannot make a signed-in
 * operator's browser call the admin API (cross-site request forgery). A request to it without basic
 * credentials gets 401 with a basic challenge; anywhere else a request without credentials passes
 * untouched (the console's own guard then sends an anonymous visitor to the sign-in page).
 *
 * <p>Every sign-in goes through {@link SignInThrottle} first: while an account or a client address
 * must wait, its attempts are refused without checking the password (HTTP basic: 429 with {@code
 * Retry-After}). A refused HTTP basic sign-in is logged as one line and fired as {@link
 * SignInRefused} for the audit; the console's sign-in page audits its own refusals.
 */
@ApplicationScoped
public class MailboxAuthenticationMechanism implements HttpAuthenticationMechanism {
  static final String REALM = "mailbox";

  private static final Logger LOG =
      Logger.getLogger(MailboxAuthenticationMechanism.class.getName());

  @Inject IdentityStoreHandler identityStores;
  @Inject SignInThrottle throttle;
  @Inject Event<SignInRefused> refusals;

  @Override
  public AuthenticationStatus validateRequest(
      HttpServletRequest request, HttpServletResponse response, HttpMessageContext context) {
    if (!context.isAuthenticationRequest()
        && request.getUserPrincipal() != null
        && !context.isProtected()) {
      // A console session signed in earlier: the container keeps its caller and groups. Never for
      // the admin API, which a browser would call with the cookie on any site's behalf.
      return continueSession(request, context);
    }
    Credential credential = context.getAuthParameters().getCredential();
    boolean programmatic = credential != null;
    if (!programmatic) {
      credential = basic(request);
    }
    if (credential != null) {
      String account =
          credential instanceof UsernamePasswordCredential login ? login.getCaller() : null;
      String address = request.getRemoteAddr();
      Instant now = Instant.now();
      Optional<Duration> wait = throttle.waitBefore(account, address, now);
      if (wait.isPresent()) {
        if (programmatic) {
          return AuthenticationStatus.SEND_FAILURE;
        }
        refused(SignInRefused.of(account, address, "throttled"));
        return tooMany(response, wait.get());
      }
      CredentialValidationResult result = identityStores.validate(credential);
      if (result.getStatus() == CredentialValidationResult.Status.VALID) {
        throttle.succeeded(account, address);
        if (programmatic) {
          context.setRegisterSession(
              result.getCallerPrincipal().getName(), result.getCallerGroups());
        }
        return context.notifyContainerAboutLogin(result);
      }
      throttle.refused(account, address, now);
      if (programmatic) {
        return AuthenticationStatus.SEND_FAILURE;
      }
      refused(SignInRefused.of(account, address, "wrong credentials"));
      return challenge(response, context);
    }
    return context.isProtected() ? challenge(response, context) : context.doNothing();
  }

  private void refused(SignInRefused refusal) {
    LOG.warning(refusal.logLine());
    try {
      refusals.fire(refusal);
    } catch (RuntimeException e) {
      // The refusal stands whether or not the audit could record it; the log line above has it.
      LOG.warning("MBX-4001 the refused sign-in could not be audited: " + e.getClass().getName());
    }
  }

  private static AuthenticationStatus tooMany(HttpServletResponse response, Duration wait) {
    response.setHeader("Retry-After", Long.toString(Math.max(1, wait.toSeconds() + 1)));
    try {
      response.sendError(429);
    } catch (java.io.IOException e) {
      response.setStatus(429);
    }
    return AuthenticationStatus.SEND_FAILURE;
  }

  private static AuthenticationStatus continueSession(
      HttpServletRequest request, HttpMessageContext context) {
    try {
      context
          .getHandler()
          .handle(
              new Callback[] {
                new CallerPrincipalCallback(context.getClientSubject(), request.getUserPrincipal())
              });
    } catch (Exception e) {
      return AuthenticationStatus.SEND_FAILURE;
    }
    return AuthenticationStatus.SUCCESS;
  }

  private static AuthenticationStatus challenge(
      HttpServletResponse response, HttpMessageContext context) {
    response.setHeader("WWW-Authenticate", "Basic realm=\"" + REALM + "\", charset=\"UTF-8\"");
    return context.responseUnauthorized();
  }

  /** The credentials of an {@code Authorization: Basic} header, or null without (or malformed). */
  static UsernamePasswordCredential basic(HttpServletRequest request) {
    String header = request.getHeader("Authorization");
    if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
      return null;
    }
    try {
      String decoded =
          new String(
              Base64.getDecoder().decode(header.substring(6).strip()), StandardCharsets.UTF_8);
      int colon = decoded.indexOf(':');
      return colon < 1
          ? null
          : new UsernamePasswordCredential(
              decoded.substring(0, colon), decoded.substring(colon + 1));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
