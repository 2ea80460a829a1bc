package io.mailbox.console.security;

import jakarta.enterprise.context.ApplicationScoped;
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
import java.util.Base64;
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
 */
@ApplicationScoped
public class MailboxAuthenticationMechanism implements HttpAuthenticationMechanism {
  static final String REALM = "mailbox";

  @Inject IdentityStoreHandler identityStores;

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
      CredentialValidationResult result = identityStores.validate(credential);
      if (result.getStatus() == CredentialValidationResult.Status.VALID) {
        if (programmatic) {
          context.setRegisterSession(
              result.getCallerPrincipal().getName(), result.getCallerGroups());
        }
        return context.notifyContainerAboutLogin(result);
      }
      return programmatic ? AuthenticationStatus.SEND_FAILURE : challenge(response, context);
    }
    return context.isProtected() ? challenge(response, context) : context.doNothing();
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
