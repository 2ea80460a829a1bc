package io.mailbox.connector.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.Capabilities;
import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.InFlightCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.spi.CustomDispositions;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.spi.Lease;
import io.mailbox.connector.spi.LeaseTable;
import io.mailbox.connector.spi.Leasing;
import io.mailbox.connector.spi.NarrowsCapabilities;
import io.mailbox.connector.spi.ParkedRecords;
import io.mailbox.connector.spi.Peeking;
import io.mailbox.connector.spi.Purging;
import io.mailbox.connector.spi.Receiver;
import io.mailbox.connector.spi.Removing;
import io.mailbox.connector.spi.TransportBase;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * What a transport implements is what it declares: the kernel reads the capabilities from the
 * interfaces, refuses the rest before anything changes, and routes a transport's own disposition to
 * it.
 */
class CapabilityGuardTest {
  private static final MailAddress ADDRESS = MailAddress.parse("list://a@b/c");

  @Test
  void aTransportWithTheCoreOnlyDeclaresStatusAndIsRefusedEverythingElse() {
    MailboxProvider provider = started(new CoreOnly());
    provider.post(MailMessage.to(ADDRESS).body("{}").build());

    assertThat(provider.supports()).containsExactly(Capabilities.STATUS);
    assertThatThrownBy(() -> provider.fetch(ADDRESS, FetchOptions.peek(1)))
        .hasMessageStartingWith("MBX-1007");
    assertThatThrownBy(() -> provider.fetch(ADDRESS, FetchOptions.leased()))
        .hasMessageStartingWith("MBX-1007");
    assertThatThrownBy(() -> provider.locate("x")).hasMessageStartingWith("MBX-1007");
    assertThatThrownBy(() -> provider.peekParked(ADDRESS, 1)).hasMessageStartingWith("MBX-1007");
    assertThatThrownBy(() -> provider.removeQueued(ADDRESS, null))
        .hasMessageStartingWith("MBX-1007");
    assertThat(provider.recover(ADDRESS).supported()).isFalse();
    assertThat(provider.enumerate()).isEmpty();
    assertThat(provider.fetch(ADDRESS, FetchOptions.autoAck()))
        .as("the refusals above changed nothing")
        .hasSize(1);
  }

  @Test
  void theDeclaredSetIsTheImplementedInterfacesPlusDeadLettersWhileEnabled() {
    MailboxProvider provider = started(new ListTransport());

    assertThat(provider.supports())
        .containsExactlyInAnyOrder(
            Capabilities.STATUS,
            Capabilities.PEEK,
            Capabilities.LEASE,
            Capabilities.REMOVE,
            Capabilities.PURGE,
            "disposition:reject");
    provider.enableDeadLetterQueue(DeadLetterPolicy.defaults());
    assertThat(provider.supports(Capabilities.DEAD_LETTER)).isTrue();
    provider.disableDeadLetterQueue();
    assertThat(provider.supports(Capabilities.DEAD_LETTER)).isFalse();
  }

  @Test
  void aTransportThatCanOnlyPurgeEmptiesAQueueButIsRefusedOneMessageByKey() {
    PurgeOnly transport = new PurgeOnly();
    MailboxProvider provider = started(transport);
    provider.post(MailMessage.to(ADDRESS).body("{}").build());
    provider.post(MailMessage.to(ADDRESS).body("{}").build());

    assertThat(provider.supports())
        .containsExactlyInAnyOrder(Capabilities.STATUS, Capabilities.PURGE);
    assertThatThrownBy(() -> provider.removeQueued(ADDRESS, "some-key"))
        .hasMessageStartingWith("MBX-1007");
    assertThat(provider.removeQueued(ADDRESS, null)).isEqualTo(2);
    assertThat(transport.queue).isEmpty();
  }

  @Test
  void parkedRecordsThatCanOnlyBePurgedAllAtOnceAreRefusedOneByKeyBeforeTheTransportIsAsked() {
    ParkedInALog transport = new ParkedInALog();
    MailboxProvider provider = started(transport);
    transport.parked.add(MailMessage.to(ADDRESS).id("parked").body("{}").build());

    assertThat(provider.supports())
        .containsExactlyInAnyOrder(Capabilities.STATUS, Capabilities.PARKED);
    assertThat(provider.can(Capabilities.PARKED_REMOVE, ADDRESS)).isFalse();
    assertThatThrownBy(() -> provider.purgeParked(ADDRESS, "some-key"))
        .hasMessageStartingWith("MBX-1007");
    assertThat(transport.keysAsked).as("refused before the transport was asked").isEmpty();
    assertThat(provider.peekParked(ADDRESS, 5)).hasSize(1);
    assertThat(provider.purgeParked(ADDRESS, null)).isEqualTo(1);
    assertThat(transport.keysAsked).containsExactly("null");
  }

  /**
   * A transport may narrow what it declares by address (amqp: peeks only into dead-letter queues):
   * {@code can} says so per address, and the kernel refuses elsewhere before anything is taken.
   */
  @Test
  void aCapabilityNarrowedByAddressIsRefusedOnlyWhereTheTransportSaysItCannot() {
    NarrowedToDeadLetters transport = new NarrowedToDeadLetters();
    MailboxProvider provider = started(transport);
    MailAddress dead = MailAddress.parse("list://a@b/c_dlq");
    provider.post(MailMessage.to(ADDRESS).id("live").body("{}").build());
    MailMessage record = provider.post(MailMessage.to(dead).id("dead").body("{}").build());

    assertThat(provider.supports(Capabilities.PEEK)).isTrue();
    assertThat(provider.can(Capabilities.PEEK, ADDRESS)).isFalse();
    assertThat(provider.can(Capabilities.REMOVE, ADDRESS)).isFalse();
    assertThat(provider.can(Capabilities.PURGE, ADDRESS)).isTrue();
    assertThat(provider.can(Capabilities.PEEK, dead)).isTrue();
    assertThatThrownBy(() -> provider.fetch(ADDRESS, FetchOptions.peek(1)))
        .hasMessageStartingWith("MBX-1007")
        .hasMessageContaining(ADDRESS.toString());
    assertThatThrownBy(() -> provider.removeQueued(ADDRESS, "some-key"))
        .hasMessageStartingWith("MBX-1007");
    assertThat(transport.queue).as("the refusals took nothing").hasSize(2);
    assertThat(provider.status(ADDRESS).extensions())
        .as("no oldest-unread peek behind the narrowing")
        .doesNotContainKey("list.oldestUnreadMs");

    assertThat(provider.fetch(dead, FetchOptions.peek(5)))
        .extracting(d -> d.message().id())
        .containsExactly("dead");
    assertThat(provider.removeQueued(dead, record.sendId().orElseThrow())).isEqualTo(1);
    assertThat(provider.removeQueued(ADDRESS, null))
        .as("a purge is possible anywhere")
        .isEqualTo(1);
  }

  @Test
  void aTransportsOwnDispositionReachesItAndAnUndeclaredOneIsRefused() {
    ListTransport transport = new ListTransport();
    MailboxProvider provider = started(transport);
    provider.post(MailMessage.to(ADDRESS).id("order-1").body("{}").build());
    Delivery delivery = provider.fetch(ADDRESS, FetchOptions.leased()).get(0);

    assertThatThrownBy(() -> delivery.settle(Disposition.custom("bounce")))
        .hasMessageStartingWith("MBX-1007");
    assertThat(delivery.settle(Disposition.custom("reject"))).isTrue();

    assertThat(transport.rejected).extracting(MailMessage::id).containsExactly("order-1");
    assertThat(provider.inFlight(ADDRESS, 10)).isEmpty();
  }

  private static MailboxProvider started(TransportBase transport) {
    MailboxProvider provider = MailboxProvider.of(transport);
    provider.start();
    return provider;
  }

  /** The core of a transport: a queue, no subscribers, nothing optional. */
  private static class CoreOnly extends TransportBase {
    final Deque<MailMessage> queue = new ArrayDeque<>();

    CoreOnly() {
      super(Clock.systemUTC(), new ExecutorScheduler());
    }

    @Override
    public String scheme() {
      return "list";
    }

    @Override
    public synchronized void send(MailAddress topic, MailMessage copy) {
      queue.add(copy);
    }

    @Override
    public AutoCloseable openSubscription(MailAddress address, Receiver receiver) {
      return () -> {};
    }

    @Override
    public synchronized List<MailMessage> takeQueued(
        MailAddress address, int limit, Lease lease, UnaryOperator<MailMessage> handOut) {
      List<MailMessage> taken = new ArrayList<>();
      while (taken.size() < limit && !queue.isEmpty()) {
        taken.add(handOut.apply(queue.poll()));
      }
      return taken;
    }

    @Override
    public synchronized boolean requeue(MailAddress address, MailMessage copy) {
      queue.addFirst(copy);
      return true;
    }

    @Override
    public AddressStatus status(MailAddress address) {
      return AddressStatus.unknown(address);
    }

    @Override
    public synchronized long clearBacklog() {
      int size = queue.size();
      queue.clear();
      return size;
    }
  }

  /** The core plus peek, leases, removal and a disposition of its own, {@code reject}. */
  /** Parked records in a log: listed and purged all at once, never one by key. */
  private static final class ParkedInALog extends CoreOnly implements ParkedRecords {
    final List<MailMessage> parked = new ArrayList<>();
    final List<String> keysAsked = new ArrayList<>();

    @Override
    public synchronized List<MailMessage> parkedCopies(MailAddress address, int limit) {
      return parked.stream().limit(limit).toList();
    }

    @Override
    public synchronized int removeParked(MailAddress address, String key) {
      keysAsked.add(String.valueOf(key));
      int removed = parked.size();
      parked.clear();
      return removed;
    }

    @Override
    public boolean removesOneParkedRecord() {
      return false;
    }
  }

  private static final class PurgeOnly extends CoreOnly implements Purging {
    @Override
    public synchronized int purgeQueued(MailAddress address) {
      int purged = queue.size();
      queue.clear();
      return purged;
    }
  }

  private static class ListTransport extends CoreOnly
      implements Peeking, Leasing, Removing, CustomDispositions {
    final LeaseTable<Void> leases = new LeaseTable<>();
    final List<MailMessage> rejected = new ArrayList<>();

    @Override
    public synchronized List<MailMessage> takeQueued(
        MailAddress address, int limit, Lease lease, UnaryOperator<MailMessage> handOut) {
      List<MailMessage> taken = super.takeQueued(address, limit, lease, handOut);
      if (lease != null) {
        taken.forEach(copy -> leases.put(copy.sendId().orElseThrow(), address, lease, copy, null));
      }
      return taken;
    }

    @Override
    public synchronized List<MailMessage> peekQueued(MailAddress address, int limit) {
      return queue.stream().limit(limit).toList();
    }

    @Override
    public Optional<MailMessage> releaseLease(MailAddress address, String key, String leaseId) {
      return leases.release(address, key, leaseId).map(LeaseTable.Leased::copy);
    }

    @Override
    public List<InFlightCopy> inFlightCopies(MailAddress address, int limit) {
      return leases.inFlight(address, limit);
    }

    @Override
    public synchronized int removeQueuedCopies(MailAddress address, String key) {
      int before = queue.size();
      queue.removeIf(copy -> key == null || key.equals(copy.sendId().orElse(null)));
      return before - queue.size();
    }

    @Override
    public Set<String> dispositionNames() {
      return Set.of("reject");
    }

    @Override
    public synchronized void applyDisposition(
        MailAddress address, MailMessage copy, Disposition disposition) {
      rejected.add(copy);
    }
  }

  /** Peeks and removes one copy only at {@code _dlq} addresses. */
  private static final class NarrowedToDeadLetters extends ListTransport
      implements NarrowsCapabilities {
    @Override
    public boolean canAt(String capability, MailAddress address) {
      boolean looks =
          Capabilities.PEEK.equals(capability) || Capabilities.REMOVE.equals(capability);
      return !looks || address.toString().endsWith("_dlq");
    }

    @Override
    public synchronized List<MailMessage> peekQueued(MailAddress address, int limit) {
      return queue.stream().filter(copy -> copy.to().equals(address)).limit(limit).toList();
    }
  }
}
