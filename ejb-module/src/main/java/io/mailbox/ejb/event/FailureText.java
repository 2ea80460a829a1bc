package io.mailbox.ejb.event;

/**
 * A failure as the outbox and the inbox store it ({@code LAST_ERROR}): its type and message on one
 * line (control characters blanked, so a hostile message cannot forge log lines), cut to the
 * column's 1024 characters.
 */
public final class FailureText {
  private FailureText() {}

  public static String of(Throwable failure) {
    String text =
        failure.getClass().getName()
            + (failure.getMessage() == null ? "" : ": " + failure.getMessage());
    text = text.replaceAll("\\p{Cntrl}", " ");
    return text.length() <= 1024 ? text : text.substring(0, 1024);
  }
}
