package io.mailbox.connector.kernel;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import java.time.Duration;
import java.util.List;
import java.util.logging.Logger;

/**
 * Moves messages from one address to another, across providers, at least once: a copy is taken from
 * the source under a lease, posted to the target with the SAME message id, and removed from the
 * source only after the target accepted it. A post that fails leaves the copy leased until its
 * lease ends, then it is taken again. A crash between the target's commit and the source's ack
 * sends the message again: give the target a dedupe window ({@code jdbc:} {@code
 * jdbcDedupeWindowMillis}) longer than the source can keep retrying, and the repeat collapses —
 * effectively once. Typical use: {@code file:} or {@code jdbc:} as the store while a broker is
 * offline, then forwarded.
 */
public final class StoreAndForwardBridge {
  private static final Logger LOG = Logger.getLogger(StoreAndForwardBridge.class.getName());

  private final Mailbox mailbox;
  private final String source;
  private final String target;
  private final Duration lease;

  /**
   * @param lease how long a copy stays invisible at the source while it is forwarded; a copy whose
   *     forward failed is taken again after it
   */
  public StoreAndForwardBridge(Mailbox mailbox, String source, String target, Duration lease) {
    this.mailbox = mailbox;
    this.source = source;
    this.target = target;
    this.lease = lease;
  }

  /**
   * Forwards up to {@code limit} waiting copies; stops at the first post the target refuses (its
   * copy comes back after the lease).
   *
   * @return how many were forwarded and removed from the source
   */
  public int pump(int limit) {
    List<Delivery> taken = mailbox.fetch(source, FetchOptions.leased(lease).limit(limit));
    int forwarded = 0;
    for (Delivery delivery : taken) {
      MailMessage original = delivery.message();
      // Same id, body, sender, headers and meta; the send boundary strips the system headers.
      MailMessage.Builder onward = MailMessage.to(target).id(original.id()).body(original.body());
      original.from().ifPresent(onward::from);
      original.headers().forEach(onward::header);
      original.meta().forEach(onward::meta);
      try {
        mailbox.post(onward.build());
      } catch (MailboxException e) {
        LOG.info(
            () ->
                "Forwarding "
                    + original
                    + " to "
                    + target
                    + " failed; it stays at the source: "
                    + e.getMessage());
        // Give every copy not yet forwarded back at once instead of waiting for the leases.
        taken
            .subList(taken.indexOf(delivery), taken.size())
            .forEach(left -> left.settle(Disposition.UNHANDLED));
        return forwarded;
      }
      // Remove at the source only after the target accepted it: a crash in between resends.
      if (delivery.ack()) {
        forwarded++;
      }
    }
    return forwarded;
  }
}
