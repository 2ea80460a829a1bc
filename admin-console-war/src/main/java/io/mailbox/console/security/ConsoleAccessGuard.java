package io.mailbox.console.security;

import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.server.ServiceInitEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * Checks on the server, before every navigation, that the session is signed in; anything but the
 * sign-in view sends an anonymous visitor there. Hiding links is not access control.
 */
@ApplicationScoped
public class ConsoleAccessGuard {
  @Inject ConsoleAccessControl accessControl;

  void installGuard(@Observes ServiceInitEvent event) {
    event.getSource().addUIInitListener(init -> init.getUI().addBeforeEnterListener(this::check));
  }

  private void check(BeforeEnterEvent event) {
    if (!accessControl.isSignedIn() && event.getNavigationTarget() != LoginView.class) {
      event.rerouteTo(LoginView.class);
    }
  }
}
