package io.mailbox.connector.provider.mem;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.testsupport.ManualClock;
import io.mailbox.connector.testsupport.ManualScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A started {@code mem:} provider on its own bus, with time that moves only when a test says so.
 */
final class MemoryRig {
  static final Instant START = Instant.parse("2026-11-30T10:00:00Z");
  static final MailAddress INBOX = MailAddress.parse("mem:sales@bus/inbox");
  static final MailAddress INBOX_DLQ = MailAddress.parse("mem:sales@bus/inbox_dlq");

  final ManualClock clock = new ManualClock(START);
  final ManualScheduler scheduler = new ManualScheduler(clock);
  final MailboxProvider provider;

  MemoryRig() {
    this(Duration.ZERO);
  }

  MemoryRig(Duration leaseSweepInterval) {
    provider =
        MailboxProvider.of(
            new MemoryProvider(MemoryBus.isolated(), clock, scheduler, leaseSweepInterval));
    provider.start();
  }

  MailMessage post(String id) {
    return post(INBOX, id);
  }

  MailMessage post(MailAddress to, String id) {
    return provider.post(MailMessage.to(to).id(id).body("{\"id\":\"" + id + "\"}").build());
  }

  Delivery lease(Duration ackTimeout) {
    List<Delivery> taken = provider.fetch(INBOX, FetchOptions.leased(ackTimeout));
    return taken.isEmpty() ? null : taken.get(0);
  }

  List<MailMessage> fetchAll(MailAddress address) {
    return provider.fetch(address, FetchOptions.autoAck().limit(100)).stream()
        .map(Delivery::message)
        .toList();
  }

  long unread(MailAddress address) {
    return provider.status(address).unreadCount();
  }

  long inFlight(MailAddress address) {
    return provider.status(address).inFlightCount();
  }

  Object extension(MailAddress address, String key) {
    return provider.status(address).extensions().get(key);
  }

  void advance(Duration duration) {
    scheduler.advance(duration);
  }
}
