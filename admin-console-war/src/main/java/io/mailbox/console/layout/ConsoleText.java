package io.mailbox.console.layout;

import io.mailbox.connector.api.MailboxException;

/** Words every view needs the same way. */
public final class ConsoleText {
  private ConsoleText() {}

  /** Whether what the operator typed names the address exactly (surrounding spaces aside). */
  public static boolean confirms(String typed, String address) {
    return typed != null && address != null && typed.strip().equals(address.strip());
  }

  /** How many characters of a body the details panes show. */
  public static final int DETAILS_BODY_CHARS = 2000;

  /**
   * A message for a details pane: its headers, one a line, then its body cut at {@value
   * #DETAILS_BODY_CHARS} characters (saying so when it is cut).
   */
  public static String details(io.mailbox.connector.api.MailMessage message) {
    StringBuilder details = new StringBuilder();
    message
        .headers()
        .forEach((name, value) -> details.append(name).append(": ").append(value).append('\n'));
    String body = message.body();
    details.append('\n');
    if (body.length() <= DETAILS_BODY_CHARS) {
      return details.append(body).toString();
    }
    return details
        .append(body, 0, DETAILS_BODY_CHARS)
        .append("\n… (")
        .append(body.length())
        .append(" characters, first ")
        .append(DETAILS_BODY_CHARS)
        .append(" shown)")
        .toString();
  }

  /** The first value of a query parameter of the page being entered, if given. */
  public static java.util.Optional<String> queryParameter(
      com.vaadin.flow.router.BeforeEnterEvent event, String name) {
    java.util.List<String> given =
        event.getLocation().getQueryParameters().getParameters().get(name);
    return given == null || given.isEmpty()
        ? java.util.Optional.empty()
        : java.util.Optional.of(given.get(0));
  }

  /** Why the product refused (its code and reason), or the failure's kind: never a stack trace. */
  public static String refusal(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof MailboxException refused) {
        return refused.getMessage();
      }
    }
    return "The operation failed: " + failure.getClass().getSimpleName();
  }
}
