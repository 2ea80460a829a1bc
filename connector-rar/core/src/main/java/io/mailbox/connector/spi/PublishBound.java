package io.mailbox.connector.spi;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxException;
import java.time.Duration;

/**
 * The publish bound's one error, so that every provider says it alike: a post its broker or store
 * did not confirm within the bound fails with {@link ErrorCode#PUBLISH_TIMEOUT}, naming the
 * address, the bound and its setting, and saying that the message may still arrive.
 */
public final class PublishBound {
  /** The bound every publish has unless configured otherwise, the adapter's and each provider's. */
  public static final Duration DEFAULT = Duration.ofSeconds(15);

  private PublishBound() {}

  /**
   * @param address the post's address (a batch: its first unconfirmed one)
   * @param bound the bound that ran out
   * @param setting the adapter setting that sets it, for the operator who wants to change it
   * @param cause the client's own timeout, kept as the cause (never shown)
   */
  public static MailboxException exceeded(
      MailAddress address, Duration bound, String setting, Throwable cause) {
    return new MailboxException(
        ErrorCode.PUBLISH_TIMEOUT,
        "The post to "
            + address
            + " was not confirmed within "
            + bound.toMillis()
            + " ms ("
            + setting
            + "). It may still arrive: the broker may store it later, so posting it again can"
            + " duplicate it (its message id lets an inbox drop the repeat).",
        cause);
  }

  /** Whether {@code failure} or one of its causes is a socket read that timed out. */
  public static boolean isSocketTimeout(Throwable failure) {
    return hasCause(failure, cause -> cause instanceof java.net.SocketTimeoutException);
  }

  /**
   * Whether {@code failure} or one of its causes is what a client reports when its own timeout ran
   * out ({@code timedOut}): the same walk for every provider's notion of it.
   */
  public static boolean hasCause(
      Throwable failure, java.util.function.Predicate<Throwable> timedOut) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (timedOut.test(cause)) {
        return true;
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return false;
  }
}
