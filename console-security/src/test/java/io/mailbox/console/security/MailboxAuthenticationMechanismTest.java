package io.mailbox.console.security;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.security.enterprise.AuthenticationStatus;
import jakarta.security.enterprise.authentication.mechanism.http.AuthenticationParameters;
import jakarta.security.enterprise.authentication.mechanism.http.HttpMessageContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.reflect.Proxy;
import java.security.Principal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.security.auth.Subject;
import javax.security.auth.callback.CallbackHandler;
import org.junit.jupiter.api.Test;

class MailboxAuthenticationMechanismTest {
  private final List<String> calls = new CopyOnWriteArrayList<>();
  private final Map<String, String> responseHeaders = new HashMap<>();

  @Test
  void aConsoleSessionCookieAloneDoesNotAuthorizeTheAdminApi() {
    AuthenticationStatus status =
        new MailboxAuthenticationMechanism()
            .validateRequest(signedInSessionRequest(), response(), context(true));

    assertThat(status).isEqualTo(AuthenticationStatus.SEND_FAILURE);
    assertThat(calls).containsExactly("responseUnauthorized");
    assertThat(responseHeaders.get("WWW-Authenticate")).startsWith("Basic realm=\"mailbox\"");
  }

  @Test
  void aConsoleSessionGoesOnForTheConsolesOwnPages() {
    AuthenticationStatus status =
        new MailboxAuthenticationMechanism()
            .validateRequest(signedInSessionRequest(), response(), context(false));

    assertThat(status).isEqualTo(AuthenticationStatus.SUCCESS);
    assertThat(calls).containsExactly("handle");
  }

  private final List<SignInRefused> refusals = new CopyOnWriteArrayList<>();
  private int status;

  @SuppressWarnings("unchecked")
  private MailboxAuthenticationMechanism mechanism(SignInThrottle throttle) {
    MailboxAuthenticationMechanism mechanism = new MailboxAuthenticationMechanism();
    mechanism.throttle = throttle;
    mechanism.identityStores =
        fake(
            jakarta.security.enterprise.identitystore.IdentityStoreHandler.class,
            (method, args) -> {
              calls.add("validate");
              return jakarta.security.enterprise.identitystore.CredentialValidationResult
                  .INVALID_RESULT;
            });
    mechanism.refusals =
        fake(
            jakarta.enterprise.event.Event.class,
            (method, args) -> {
              refusals.add((SignInRefused) args[0]);
              return null;
            });
    return mechanism;
  }

  private static HttpServletRequest basicRequest(String user, String password) {
    String header =
        "Basic "
            + java.util.Base64.getEncoder()
                .encodeToString(
                    (user + ":" + password).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    return fake(
        HttpServletRequest.class,
        (method, args) ->
            switch (method) {
              case "getHeader" -> "Authorization".equals(args[0]) ? header : null;
              case "getRemoteAddr" -> "203.0.113.7";
              default -> null;
            });
  }

  @Test
  void aWrongBasicPasswordIsChallengedLoggedAndReportedForTheAuditWithoutThePassword() {
    AuthenticationStatus answer =
        mechanism(new SignInThrottle())
            .validateRequest(basicRequest("ops\r\nforged", "guess-1"), response(), context(true));

    assertThat(answer).isEqualTo(AuthenticationStatus.SEND_FAILURE);
    assertThat(calls).containsExactly("validate", "responseUnauthorized");
    assertThat(refusals)
        .singleElement()
        .satisfies(
            refused -> {
              assertThat(refused.account()).isEqualTo("ops\\u000d\\u000aforged");
              assertThat(refused.clientAddress()).isEqualTo("203.0.113.7");
              assertThat(refused.reason()).isEqualTo("wrong credentials");
              assertThat(refused.logLine()).doesNotContain("guess-1").doesNotContain("\n");
            });
  }

  @Test
  void aThrottledBasicSignInIsRefusedWith429BeforeItsPasswordIsChecked() {
    SignInThrottle throttle = new SignInThrottle();
    for (int i = 0; i < SignInThrottle.FREE_FAILURES + 1; i++) {
      throttle.refused("ops", "203.0.113.7", java.time.Instant.now());
    }

    AuthenticationStatus answer =
        mechanism(throttle)
            .validateRequest(basicRequest("ops", "the-right-one"), response(), context(true));

    assertThat(answer).isEqualTo(AuthenticationStatus.SEND_FAILURE);
    assertThat(status).isEqualTo(429);
    assertThat(responseHeaders).containsKey("Retry-After");
    assertThat(calls).doesNotContain("validate");
    assertThat(refusals).singleElement().extracting(SignInRefused::reason).isEqualTo("throttled");
  }

  private static HttpServletRequest signedInSessionRequest() {
    Principal operator = () -> "operator";
    return fake(
        HttpServletRequest.class,
        (method, args) ->
            switch (method) {
              case "getUserPrincipal" -> operator;
              case "getRemoteAddr" -> "203.0.113.7";
              default -> null;
            });
  }

  private HttpServletResponse response() {
    return fake(
        HttpServletResponse.class,
        (method, args) -> {
          if (method.equals("setHeader")) {
            responseHeaders.put((String) args[0], (String) args[1]);
          }
          if (method.equals("sendError")) {
            status = (Integer) args[0];
          }
          return null;
        });
  }

  private HttpMessageContext context(boolean protectedResource) {
    CallbackHandler handler =
        fake(
            CallbackHandler.class,
            (method, args) -> {
              calls.add("handle");
              return null;
            });
    return fake(
        HttpMessageContext.class,
        (method, args) ->
            switch (method) {
              case "isProtected" -> protectedResource;
              case "isAuthenticationRequest" -> false;
              case "getAuthParameters" -> AuthenticationParameters.withParams();
              case "getHandler" -> handler;
              case "getClientSubject" -> new Subject();
              case "responseUnauthorized" -> {
                calls.add("responseUnauthorized");
                yield AuthenticationStatus.SEND_FAILURE;
              }
              case "doNothing" -> {
                calls.add("doNothing");
                yield AuthenticationStatus.NOT_DONE;
              }
              default -> throw new AssertionError("unexpected call " + method);
            });
  }

  interface Answer {
    Object answer(String method, Object[] args);
  }

  @SuppressWarnings("unchecked")
  static <T> T fake(Class<T> type, Answer answer) {
    return (T)
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "hashCode" -> System.identityHashCode(proxy);
                  case "equals" -> proxy == args[0];
                  case "toString" -> type.getSimpleName();
                  default -> answer.answer(method.getName(), args);
                });
  }
}
