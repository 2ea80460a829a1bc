package io.mailbox.console.security;

import jakarta.servlet.annotation.WebListener;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionListener;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * How long an idle session lives: a session nobody signed in to only {@value
 * #ANONYMOUS_SECONDS_KEY} (default {@value #DEFAULT_ANONYMOUS_SECONDS} s), so a flood of anonymous
 * page loads (each one a Vaadin session of some 13 KB) is gone within minutes instead of holding
 * memory for half an hour; a signed-in session {@value #SIGNED_IN_SECONDS} s (web.xml's 30
 * minutes). An open sign-in page keeps its session alive with Vaadin's heartbeat (every 60 s,
 * web.xml).
 */
@WebListener
public class SessionTimeouts implements HttpSessionListener {
  /** Config key (environment {@code MAILBOX_CONSOLE_ANONYMOUS_SESSION_SECONDS}). */
  public static final String ANONYMOUS_SECONDS_KEY = "mailbox.console.anonymous-session-seconds";

  /** Two heartbeats' worth. */
  public static final int DEFAULT_ANONYMOUS_SECONDS = 150;

  /** A signed-in session's idle time, as web.xml's session-timeout. */
  public static final int SIGNED_IN_SECONDS = 30 * 60;

  private final int anonymousSeconds;

  public SessionTimeouts() {
    this(
        ConfigProvider.getConfig()
            .getOptionalValue(ANONYMOUS_SECONDS_KEY, Integer.class)
            .orElse(DEFAULT_ANONYMOUS_SECONDS));
  }

  SessionTimeouts(int anonymousSeconds) {
    this.anonymousSeconds = anonymousSeconds;
  }

  @Override
  public void sessionCreated(HttpSessionEvent event) {
    event.getSession().setMaxInactiveInterval(anonymousSeconds);
  }

  /** Gives a session that just signed in the full idle time. */
  static void signedIn(HttpSession session) {
    session.setMaxInactiveInterval(SIGNED_IN_SECONDS);
  }
}
