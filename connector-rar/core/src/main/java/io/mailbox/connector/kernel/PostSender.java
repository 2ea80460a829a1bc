package io.mailbox.connector.kernel;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.spi.Transport;
import java.time.Duration;
import java.util.List;

/**
 * The last step of a post, after the send boundary stamped it: hands the copies to the transport,
 * within the publish bound ({@link PublishWatch}, for a transport that does not bound its own), and
 * counts them ({@link TrafficCounters}: posted, or a publish failure, with the time it took).
 */
final class PostSender {
  private final Transport transport;
  private final TrafficCounters traffic;
  private final PublishWatch watch; // null: the transport bounds its own publish

  PostSender(Transport transport, TrafficCounters traffic) {
    this.transport = transport;
    this.traffic = traffic;
    this.watch = PublishWatch.of(transport);
  }

  /** See {@link MailboxProvider#setPublishTimeout}. */
  void setPublishTimeout(Duration timeout) {
    if (timeout == null || timeout.isNegative()) {
      throw new io.mailbox.connector.api.MailboxException(
          io.mailbox.connector.api.ErrorCode.INVALID_POLICY,
          "The publish timeout must be zero (none) or positive.");
    }
    if (watch != null) {
      watch.setBound(timeout);
    }
  }

  void send(MailMessage stamped) {
    // Counted in place, not through countPosts: a list and a lambda per post measured 20-30 % on
    // the kernel benchmark's one-message paths.
    TrafficCounters.Counts counts = traffic.of(stamped.to());
    long start = System.nanoTime();
    try {
      if (watch == null) {
        transport.send(stamped.to(), stamped);
      } else {
        watch.send(stamped.to(), () -> transport.send(stamped.to(), stamped));
      }
    } catch (RuntimeException | Error e) {
      counts.publishFailed(System.nanoTime() - start);
      throw e;
    }
    counts.posted(System.nanoTime() - start);
  }

  void sendAll(List<MailMessage> stamped) {
    Runnable sendAll = () -> transport.sendAll(stamped);
    traffic.countPosts(
        stamped,
        watch == null || stamped.isEmpty()
            ? sendAll
            : () -> watch.send(stamped.get(0).to(), sendAll));
  }
}
