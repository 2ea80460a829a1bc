package io.mailbox.console.security;

/**
 * A refused HTTP basic sign-in, fired as a CDI event by {@link MailboxAuthenticationMechanism} so
 * the application can audit it (the console's own sign-in page audits its refusals itself).
 *
 * @param account the account name tried, escaped and cut to {@value #MAX_ACCOUNT} characters
 * @param clientAddress the address the request came from (a proxy's, behind one)
 * @param reason {@code wrong credentials} or {@code throttled}
 */
public record SignInRefused(String account, String clientAddress, String reason) {
  /** Longest account name kept; longer ones are cut with a marker. */
  public static final int MAX_ACCOUNT = 64;

  /** The event for an attempt, its account name made printable and short. */
  public static SignInRefused of(String account, String clientAddress, String reason) {
    String printable =
        account == null || account.isBlank()
            ? "(blank)"
            : ControlCharacters.escape(account.strip());
    if (printable.length() > MAX_ACCOUNT) {
      printable = printable.substring(0, MAX_ACCOUNT) + "…";
    }
    return new SignInRefused(printable, clientAddress, reason);
  }

  /** The one log line of this refusal (no password, ever). */
  public String logLine() {
    return "MBX-4001 sign-in refused ("
        + reason
        + "): account '"
        + account
        + "' from "
        + clientAddress
        + " by HTTP basic";
  }
}
