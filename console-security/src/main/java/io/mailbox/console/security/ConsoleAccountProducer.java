package io.mailbox.console.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Optional;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/** Builds the console account once per application from MicroProfile Config. */
@ApplicationScoped
public class ConsoleAccountProducer {
  /** Config key of the account name (default {@value ConsoleAccount#DEFAULT_USERNAME}). */
  public static final String USERNAME_KEY = "mailbox.console.username";

  /** Config key of the password; unset means a random one is generated and printed at start-up. */
  public static final String PASSWORD_KEY = "mailbox.console.password";

  private static final Logger LOG = Logger.getLogger(ConsoleAccountProducer.class.getName());

  /** Builds the account when the application starts, so a generated password is printed at once. */
  void atStartup(
      @Observes @Initialized(ApplicationScoped.class) Object ignored, ConsoleAccount account) {
    LOG.info(() -> "Console sign-in account: " + account.username());
  }

  /** Config key of the extra accounts, {@code name:viewer|operator,...}. */
  public static final String USERS_KEY = "mailbox.users";

  /**
   * Everyone who may sign in: the console account (operator) and {@code mailbox.users}. Accounts
   * that were left out are logged by name and reason, never with a password.
   */
  @Produces
  @Singleton
  Members members(ConsoleAccount console) {
    Config config = ConfigProvider.getConfig();
    Members members =
        Members.of(
            console,
            config.getOptionalValue(USERS_KEY, String.class).orElse(null),
            name -> config.getOptionalValue("mailbox.user." + name + ".password", String.class));
    members.refused().forEach(reason -> LOG.warning("Account left out: " + reason));
    LOG.info(
        () ->
            "Accounts: "
                + members.all().stream()
                    .map(m -> m.account().username() + " " + m.roles())
                    .toList());
    return members;
  }

  /** One throttle for the whole application: the console page and HTTP basic count together. */
  @Produces
  @Singleton
  SignInThrottle signInThrottle() {
    return new SignInThrottle();
  }

  // @Singleton, not @ApplicationScoped: the account is an immutable final class and needs no proxy.
  @Produces
  @Singleton
  ConsoleAccount consoleAccount() {
    Config config = ConfigProvider.getConfig();
    Optional<String> username = config.getOptionalValue(USERNAME_KEY, String.class);
    Optional<String> password = config.getOptionalValue(PASSWORD_KEY, String.class);
    if (password.isPresent()
        && !password.get().isBlank()
        && PasswordPolicy.weakness(password.get()).isPresent()) {
      // Refused at start, loudly: a console that accepts a guessable password is worse than none.
      throw new IllegalStateException(
          ConsoleAccount.WEAK_PASSWORD
              + " The console password ("
              + PASSWORD_KEY
              + " or MAILBOX_CONSOLE_PASSWORD) is too weak: "
              + PasswordPolicy.weakness(password.get()).get()
              + ". Use "
              + PasswordPolicy.rule()
              + ", or leave it unset to have one generated.");
    }
    return ConsoleAccount.configure(
        username.orElse(null),
        password.orElse(null),
        generated ->
            // Shown once, on purpose: this is the development account the operator needs to sign
            // in.
            LOG.warning(
                "No console password is configured ("
                    + PASSWORD_KEY
                    + " or MAILBOX_CONSOLE_PASSWORD); for this run sign in as '"
                    + username.orElse(ConsoleAccount.DEFAULT_USERNAME)
                    + "' with the generated password "
                    + generated));
  }
}
