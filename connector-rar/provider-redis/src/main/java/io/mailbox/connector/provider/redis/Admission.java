package io.mailbox.connector.provider.redis;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.provider.redis.HeldEntries.Held;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What happens to an entry taken from Redis before anyone sees it: it is read ({@link
 * StreamEntries}) and held here, then given up instead of handed out when it has no body (no
 * delivery can make it readable) or when this delivery would exceed {@code redisMaxDeliveries}; the
 * kernel dead-letters it, then it is acknowledged.
 */
final class Admission {
  /** The kernel's give-up of a queued copy ({@code TransportContext.giveUpQueued}). */
  interface GiveUp {
    void giveUp(MailAddress address, MailMessage copy, String reason, int deliveries);
  }

  private final HeldEntries held;
  private final int maxDeliveries;
  private final GiveUp giveUp;
  private final AtomicLong droppedFields = new AtomicLong();

  Admission(HeldEntries held, int maxDeliveries, GiveUp giveUp) {
    this.held = held;
    this.maxDeliveries = maxDeliveries;
    this.giveUp = giveUp;
  }

  /** The held copy of a taken entry, or empty when it was given up. */
  Optional<MailMessage> admit(MailAddress address, String key, GroupReads.Taken taken) {
    StreamEntries.Read read =
        StreamEntries.read(
            address, key, taken.entry().getID(), taken.entry().getFields(), taken.deliveries());
    if (read.droppedFields() > 0) {
      droppedFields.addAndGet(read.droppedFields());
    }
    MailMessage copy = read.copy();
    held.hold(copy, new Held(address, key, taken.entry().getID()));
    int deliveredBefore = (int) taken.deliveries() - 1;
    if (read.missingBody()) {
      giveUp.giveUp(address, copy, "missing-body", deliveredBefore);
      return Optional.empty();
    }
    if (maxDeliveries > 0 && deliveredBefore >= maxDeliveries) {
      giveUp.giveUp(address, copy, "max-deliveries", deliveredBefore);
      return Optional.empty();
    }
    return Optional.of(copy);
  }

  /** Foreign fields dropped so far (unsafe names, or our own names from a foreign writer). */
  long droppedFields() {
    return droppedFields.get();
  }
}
