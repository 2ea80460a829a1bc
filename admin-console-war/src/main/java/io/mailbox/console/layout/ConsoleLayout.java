package io.mailbox.console.layout;

import com.vaadin.flow.component.applayout.AppLayout;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.html.H1;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.sidenav.SideNav;
import com.vaadin.flow.component.sidenav.SideNavItem;
import io.mailbox.console.audit.AuditView;
import io.mailbox.console.dashboard.DashboardView;
import io.mailbox.console.outbox.OutboxView;
import io.mailbox.console.parked.ParkedView;
import io.mailbox.console.security.ConsoleAccessControl;
import jakarta.inject.Inject;

/** The frame of every console view: the title, who is signed in (and as what), the navigation. */
public class ConsoleLayout extends AppLayout {

  @Inject
  public ConsoleLayout(ConsoleAccessControl accessControl) {
    H1 title = new H1("Mailbox");
    title.getStyle().set("font-size", "var(--lumo-font-size-l)").set("margin", "0");
    String who =
        accessControl
            .signedIn()
            .map(s -> s.username() + (s.isOperator() ? " (operator)" : " (viewer, read only)"))
            .orElse("?");
    Span user = new Span("Signed in as " + who);
    user.setId("signed-in-user");
    Button signOut =
        new Button(
            "Sign out",
            click -> {
              accessControl.signOut();
              getUI().ifPresent(ui -> ui.getPage().setLocation("login"));
            });
    signOut.setId("sign-out");
    signOut.addThemeVariants(ButtonVariant.LUMO_TERTIARY);
    HorizontalLayout bar = new HorizontalLayout(title, user, signOut);
    bar.setWidthFull();
    bar.setPadding(true);
    bar.setAlignItems(FlexComponent.Alignment.BASELINE);
    bar.expand(title);
    addToNavbar(bar);

    SideNav nav = new SideNav();
    nav.setId("navigation");
    nav.addItem(
        new SideNavItem("Mailboxes", DashboardView.class),
        new SideNavItem("Where is my message?", io.mailbox.console.journey.JourneyView.class),
        new SideNavItem("Outbox", OutboxView.class),
        new SideNavItem("Inbox", io.mailbox.console.inbox.InboxView.class),
        new SideNavItem("Dead letters", io.mailbox.console.deadletters.DeadLettersView.class),
        new SideNavItem("Parked", ParkedView.class),
        new SideNavItem("Audit", AuditView.class));
    addToDrawer(nav);
    setPrimarySection(Section.NAVBAR);
  }
}
