package io.mailbox.connector.kernel;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.spi.Lease;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/** The two kinds of {@link Delivery} a fetch returns. */
final class FetchedDeliveries {
  private FetchedDeliveries() {}

  /** A copy handed out under a lease: settles once, through the kernel, by key and lease id. */
  static final class Leased implements Delivery {
    private final PullSettlement pull;
    private final MailAddress address;
    private final MailMessage message;
    private final Lease lease;
    private final AtomicBoolean settled = new AtomicBoolean();

    Leased(PullSettlement pull, MailAddress address, MailMessage message, Lease lease) {
      this.pull = pull;
      this.address = address;
      this.message = message;
      this.lease = lease;
    }

    @Override
    public MailMessage message() {
      return message;
    }

    @Override
    public MailAddress address() {
      return address;
    }

    @Override
    public String key() {
      return message.sendId().orElseThrow();
    }

    @Override
    public Optional<String> leaseId() {
      return Optional.of(lease.id());
    }

    @Override
    public Optional<Instant> leaseExpiresAt() {
      return Optional.ofNullable(lease.expiresAt());
    }

    @Override
    public boolean settle(Disposition disposition) {
      pull.requireDisposition(disposition);
      if (!settled.compareAndSet(false, true)) {
        return false;
      }
      return pull.settle(address, key(), lease.id(), disposition);
    }
  }

  /** An auto-acknowledged or peeked copy: nothing left to settle. */
  static final class Settled implements Delivery {
    private final MailAddress address;
    private final MailMessage message;

    Settled(MailAddress address, MailMessage message) {
      this.address = address;
      this.message = message;
    }

    @Override
    public MailMessage message() {
      return message;
    }

    @Override
    public MailAddress address() {
      return address;
    }

    @Override
    public String key() {
      return message.sendId().orElse("");
    }

    @Override
    public Optional<String> leaseId() {
      return Optional.empty();
    }

    @Override
    public Optional<Instant> leaseExpiresAt() {
      return Optional.empty();
    }

    @Override
    public boolean settle(Disposition disposition) {
      return false;
    }
  }
}
