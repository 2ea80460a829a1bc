package io.mailbox.console.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The console's sign-in account. Its name and password come from configuration ({@code
 * mailbox.console.username}, {@code mailbox.console.password}, or the environment variables {@code
 * MAILBOX_CONSOLE_USERNAME} / {@code MAILBOX_CONSOLE_PASSWORD}); no password is written in code.
 * When none is configured a random one is generated for the life of the server and printed once at
 * start-up, so a development server is never open without a password.
 */
public final class ConsoleAccount {
  /** The account name when none is configured. */
  public static final String DEFAULT_USERNAME = "admin";

  private static final int GENERATED_PASSWORD_BYTES = 18;

  private final String username;
  private final byte[] passwordDigest;
  private final boolean generated;

  private ConsoleAccount(String username, String password, boolean generated) {
    this.username = username;
    this.passwordDigest = digest(password);
    this.generated = generated;
  }

  /** The code of the refusal of a configured password that is too weak. */
  public static final String WEAK_PASSWORD = "MBX-4010";

  /**
   * The account from configured values; a blank password means "generate one".
   *
   * @param onGenerated receives a generated password so it can be shown to the operator once
   * @throws IllegalArgumentException ({@value #WEAK_PASSWORD}) when the configured password is
   *     weaker than {@link PasswordPolicy} allows; the message never quotes it
   */
  public static ConsoleAccount configure(
      String configuredUsername,
      String configuredPassword,
      java.util.function.Consumer<String> onGenerated) {
    String username =
        configuredUsername == null || configuredUsername.isBlank()
            ? DEFAULT_USERNAME
            : configuredUsername.strip();
    if (configuredPassword != null && !configuredPassword.isBlank()) {
      PasswordPolicy.weakness(configuredPassword)
          .ifPresent(
              weakness -> {
                throw new IllegalArgumentException(
                    WEAK_PASSWORD
                        + " The password configured for account '"
                        + username
                        + "' is too weak: "
                        + weakness
                        + ". Use "
                        + PasswordPolicy.rule()
                        + ".");
              });
      return new ConsoleAccount(username, configuredPassword, false);
    }
    byte[] random = new byte[GENERATED_PASSWORD_BYTES];
    new SecureRandom().nextBytes(random);
    String password = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    onGenerated.accept(password);
    return new ConsoleAccount(username, password, true);
  }

  public String username() {
    return username;
  }

  /** Whether the password was generated because none was configured. */
  public boolean isGenerated() {
    return generated;
  }

  /** Checks a sign-in attempt; the password comparison takes the same time whatever matches. */
  public boolean matches(String candidateUsername, String candidatePassword) {
    if (candidateUsername == null || candidatePassword == null) {
      return false;
    }
    boolean passwordMatches = MessageDigest.isEqual(passwordDigest, digest(candidatePassword));
    return passwordMatches & username.equals(candidateUsername.strip());
  }

  private static byte[] digest(String password) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(password.getBytes(StandardCharsets.UTF_8));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }

  /** Never prints the password. */
  @Override
  public String toString() {
    return "ConsoleAccount[" + username + "]";
  }
}
