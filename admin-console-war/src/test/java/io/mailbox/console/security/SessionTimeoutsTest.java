package io.mailbox.console.security;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpSessionEvent;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SessionTimeoutsTest {
  private final AtomicInteger maxInactive = new AtomicInteger(1800);
  private final HttpSession session =
      (HttpSession)
          Proxy.newProxyInstance(
              getClass().getClassLoader(),
              new Class<?>[] {HttpSession.class},
              (proxy, method, args) -> {
                if (method.getName().equals("setMaxInactiveInterval")) {
                  maxInactive.set((Integer) args[0]);
                }
                return null;
              });

  @Test
  void aNewSessionNobodySignedInToLivesOnlyMinutes() {
    new SessionTimeouts(SessionTimeouts.DEFAULT_ANONYMOUS_SECONDS)
        .sessionCreated(new HttpSessionEvent(session));

    assertThat(maxInactive).hasValue(150);
  }

  @Test
  void signingInGivesTheSessionTheFullHalfHour() {
    new SessionTimeouts(150).sessionCreated(new HttpSessionEvent(session));

    SessionTimeouts.signedIn(session);

    assertThat(maxInactive).hasValue(30 * 60);
  }
}
