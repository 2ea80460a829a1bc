package io.mailbox.console.security;

import com.vaadin.flow.component.Key;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.html.H1;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.orderedlayout.FlexComponent.Alignment;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.PasswordField;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import io.mailbox.console.dashboard.DashboardView;
import jakarta.inject.Inject;

/** The sign-in page; the only view an anonymous visitor can reach. */
@Route("login")
@PageTitle("Sign in · Mailbox")
public class LoginView extends VerticalLayout implements BeforeEnterObserver {
  private final TextField username = new TextField("Username");
  private final PasswordField password = new PasswordField("Password");
  private final Paragraph error = new Paragraph();
  private final ConsoleAccessControl accessControl;

  @Inject
  public LoginView(ConsoleAccessControl accessControl) {
    this.accessControl = accessControl;
    setSizeFull();
    setAlignItems(Alignment.CENTER);
    setJustifyContentMode(JustifyContentMode.CENTER);

    username.setId("username");
    username.setAutofocus(true);
    username.setAutocomplete(com.vaadin.flow.component.textfield.Autocomplete.USERNAME);
    password.setId("password");
    error.setId("login-error");
    error.getStyle().set("color", "var(--lumo-error-text-color)");
    error.setVisible(false);

    Button signIn = new Button("Sign in", click -> attempt());
    signIn.setId("sign-in");
    signIn.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    signIn.addClickShortcut(Key.ENTER);

    VerticalLayout form = new VerticalLayout(new H1("Mailbox"), username, password, error, signIn);
    form.setWidth("22rem");
    form.setPadding(false);
    username.setWidthFull();
    password.setWidthFull();
    add(form);
  }

  private void attempt() {
    if (accessControl.signIn(username.getValue(), password.getValue())) {
      getUI().ifPresent(ui -> ui.navigate(DashboardView.class));
    } else {
      password.clear();
      error.setText(
          accessControl
              .signInWait(username.getValue())
              .map(
                  wait ->
                      "Too many refused sign-ins; try again in "
                          + Math.max(1, wait.toSeconds() + 1)
                          + " seconds.")
              .orElse("Wrong username or password."));
      error.setVisible(true);
    }
  }

  @Override
  public void beforeEnter(BeforeEnterEvent event) {
    if (accessControl.isSignedIn()) {
      event.forwardTo(DashboardView.class);
    }
  }
}
