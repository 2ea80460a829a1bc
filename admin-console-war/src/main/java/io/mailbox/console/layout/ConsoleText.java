package io.mailbox.console.layout;

import io.mailbox.connector.api.MailboxException;

/** Words every view needs the same way. */
public final class ConsoleText {
  private ConsoleText() {}

  /** Whether what the operator typed names the address exactly (surrounding spaces aside). */
  public static boolean confirms(String typed, String address) {
    return typed != null && address != null && typed.strip().equals(address.strip());
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
