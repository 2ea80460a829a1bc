package io.mailbox.connector.api;

import java.io.Serializable;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * How one delivery of a message was settled. One delivery gets exactly one disposition.
 *
 * <table>
 *   <caption>The three core dispositions</caption>
 *   <tr><th>disposition</th><th>this copy handed out again</th><th>provider tidies up</th></tr>
 *   <tr><td>{@link #HANDLED}</td><td>no</td><td>no</td></tr>
 *   <tr><td>{@link #DISCARD}</td><td>no</td><td>yes: a dead-letter record where enabled</td></tr>
 *   <tr><td>{@link #UNHANDLED}</td><td>yes, back in the queue</td><td>no</td></tr>
 * </table>
 *
 * <p>Any other value is a provider's own vocabulary ({@link #custom(String)}) and must be declared
 * as the capability {@code disposition:<name>}; an undeclared one is refused before anything
 * changes.
 */
public final class Disposition implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,63}");

  /**
   * Done with this copy, never handed out again. The normal way to finish, even when dropping it.
   */
  public static final Disposition HANDLED = new Disposition("handled");

  /**
   * Never handed out again, and the provider tidies up by its own rules (dead letter where
   * enabled).
   */
  public static final Disposition DISCARD = new Disposition("discard");

  /** Back into the queue, to be handed out again. */
  public static final Disposition UNHANDLED = new Disposition("unhandled");

  private final String name;

  private Disposition(String name) {
    this.name = name;
  }

  /**
   * A provider-declared disposition, for example {@code custom("reject")}.
   *
   * @throws MailboxException {@link ErrorCode#UNSUPPORTED_CAPABILITY} for a malformed name
   */
  public static Disposition custom(String name) {
    String normalized = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
    switch (normalized) {
      case "handled":
        return HANDLED;
      case "discard":
        return DISCARD;
      case "unhandled":
        return UNHANDLED;
      default:
        if (!NAME.matcher(normalized).matches()) {
          throw new MailboxException(
              ErrorCode.UNSUPPORTED_CAPABILITY,
              "Disposition '"
                  + name
                  + "' is not a valid name (lower case letters, digits and '-').");
        }
        return new Disposition(normalized);
    }
  }

  public String name() {
    return name;
  }

  /** Whether this is one of the three dispositions every provider understands. */
  public boolean isCore() {
    return this == HANDLED || this == DISCARD || this == UNHANDLED;
  }

  /** The capability a provider must declare to accept this disposition. */
  public String capability() {
    return Capabilities.DISPOSITION_PREFIX + name;
  }

  /**
   * Maps a push consumer's outcome: a return is handled, a retriable failure ({@link
   * #isRetriable(Throwable)}) is unhandled, anything else is discard.
   */
  public static Disposition of(Throwable failure) {
    if (failure == null) {
      return HANDLED;
    }
    return isRetriable(failure) ? UNHANDLED : DISCARD;
  }

  /**
   * Whether a failure means "try again later": anywhere in its cause chain a {@link
   * RetriableDeliveryException}, a {@link Retriable} that says so, or the Java forms of a timed-out
   * or refused connection ({@link SocketTimeoutException}, {@link ConnectException}, {@link
   * TimeoutException}). Everything else is fatal for that delivery.
   */
  public static boolean isRetriable(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof RetriableDeliveryException
          || t instanceof SocketTimeoutException
          || t instanceof ConnectException
          || t instanceof TimeoutException) {
        return true;
      }
      if (t instanceof Retriable retriable) {
        return retriable.isRetriable();
      }
    }
    return false;
  }

  private Object readResolve() {
    return custom(name);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Disposition that && name.equals(that.name);
  }

  @Override
  public int hashCode() {
    return name.hashCode();
  }

  @Override
  public String toString() {
    return name;
  }
}
