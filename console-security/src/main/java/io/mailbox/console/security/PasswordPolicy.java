package io.mailbox.console.security;

import java.util.Optional;

/**
 * The least a configured password must be: at least {@value #MIN_LENGTH} characters, at least
 * {@value #MIN_DISTINCT} of them different (so neither {@code short} nor {@code aaaaaaaaaaaa}
 * passes). A generated password (24 random base64url characters) always does.
 */
public final class PasswordPolicy {
  /** Fewest characters. */
  public static final int MIN_LENGTH = 12;

  /** Fewest different characters. */
  public static final int MIN_DISTINCT = 6;

  private PasswordPolicy() {}

  /** What is too weak about the password, or empty when it is strong enough. Never quotes it. */
  public static Optional<String> weakness(String password) {
    int length = password.codePointCount(0, password.length());
    if (length < MIN_LENGTH) {
      return Optional.of("it has fewer than " + MIN_LENGTH + " characters");
    }
    if (password.codePoints().distinct().count() < MIN_DISTINCT) {
      return Optional.of("it has fewer than " + MIN_DISTINCT + " different characters");
    }
    return Optional.empty();
  }

  /** The rule, as the refusals state it. */
  static String rule() {
    return "at least " + MIN_LENGTH + " characters, " + MIN_DISTINCT + " of them different";
  }
}
