package io.mailbox.connector.provider.mem;

import static io.mailbox.connector.provider.mem.MemoryRig.INBOX;
import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.CopyState;
import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.LocatedCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.DeadLetterPolicy;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.kernel.MailboxSubscriber;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Search by their name, act by ours; isolated and scoped buses; clear() (reference §3, isolation).
 */
class LocateAndIsolationTest {
  private static final MailAddress BUYER = MailAddress.parse("mem:buyer@shop/orders");
  private static final MailAddress SELLER = MailAddress.parse("mem:seller@shop/orders");

  private final MemoryRig rig = new MemoryRig();

  @Test
  void locateFindsEveryCopyOfAnIdWithItsKeyAndState() {
    rig.post(BUYER, "order-42");
    rig.post(SELLER, "order-42");
    Delivery leased = rig.provider.fetch(SELLER, FetchOptions.leased()).get(0);

    List<LocatedCopy> found = rig.provider.locate("order-42");

    assertThat(found).hasSize(2);
    assertThat(found)
        .extracting(LocatedCopy::state)
        .containsExactly(CopyState.QUEUED, CopyState.IN_FLIGHT);
    LocatedCopy seller = found.get(1);
    assertThat(seller.address()).isEqualTo(SELLER);
    assertThat(seller.key()).isEqualTo(leased.key());
    assertThat(seller.leaseId()).isEqualTo(leased.leaseId().orElseThrow());
  }

  @Test
  void settlingByTheLocatedKeyClosesOnlyThatCopy() {
    rig.post(BUYER, "order-42");
    rig.post(SELLER, "order-42");
    rig.provider.fetch(SELLER, FetchOptions.leased());
    LocatedCopy seller = rig.provider.locate("order-42").get(1);

    assertThat(rig.provider.settle(SELLER, seller.key(), seller.leaseId(), Disposition.HANDLED))
        .isTrue();

    assertThat(rig.unread(BUYER)).isEqualTo(1);
    assertThat(rig.inFlight(SELLER)).isZero();
  }

  @Test
  void locateSeesParkedCopiesToo() {
    rig.provider.enableDeadLetterQueue(DeadLetterPolicy.defaults());
    rig.post("p");
    rig.provider.fetch(INBOX, FetchOptions.leased()).get(0).settle(Disposition.DISCARD);
    rig.provider
        .fetch(MemoryRig.INBOX_DLQ, FetchOptions.leased())
        .get(0)
        .settle(Disposition.DISCARD);

    assertThat(rig.provider.locate("p"))
        .extracting(LocatedCopy::state)
        .containsExactly(CopyState.PARKED);
  }

  @Test
  void locateIsReadOnly() {
    rig.post("a");

    rig.provider.locate("a");

    assertThat(rig.unread(INBOX)).isEqualTo(1);
  }

  @Test
  void isolatedProvidersNeverSeeEachOthersMail() {
    MailboxProvider one = MailboxProvider.of(MemoryProvider.isolated());
    MailboxProvider two = MailboxProvider.of(MemoryProvider.isolated());
    one.start();
    two.start();

    one.post(MailMessage.to(INBOX).body("{}").build());

    assertThat(one.status(INBOX).unreadCount()).isEqualTo(1);
    assertThat(two.status(INBOX).exists()).isFalse();
  }

  @Test
  void providersOfOneScopeShareItsQueuesAndOtherScopesDoNot() {
    String scope = "tenant-" + UUID.randomUUID();
    MailboxProvider sender = MailboxProvider.of(MemoryProvider.forScope(scope));
    MailboxProvider receiver = MailboxProvider.of(MemoryProvider.forScope(scope));
    MailboxProvider stranger = MailboxProvider.of(MemoryProvider.forScope(scope + "-other"));
    sender.start();
    receiver.start();
    stranger.start();

    sender.post(MailMessage.to(INBOX).id("hello").body("{}").build());

    assertThat(stranger.fetch(INBOX, FetchOptions.autoAck())).isEmpty();
    assertThat(receiver.fetch(INBOX, FetchOptions.autoAck()))
        .extracting(d -> d.message().id())
        .containsExactly("hello");
  }

  @Test
  void clearDropsMessagesButNeverSubscriptions() {
    rig.post("queued");
    rig.post(BUYER, "leased");
    Delivery leased = rig.provider.fetch(BUYER, FetchOptions.leased(Duration.ofMinutes(1))).get(0);
    List<String> received = new java.util.concurrent.CopyOnWriteArrayList<>();
    rig.provider.subscribe(SELLER, MailboxSubscriber.of(m -> received.add(m.id())));

    assertThat(rig.provider.clear()).isEqualTo(2);

    assertThat(rig.unread(INBOX)).isZero();
    assertThat(leased.ack()).as("a disposition that did not land is not a give-up").isFalse();
    rig.post(SELLER, "after");
    assertThat(received).containsExactly("after");
  }

  @Test
  void oneBusCanBeClearedTopicByTopic() {
    rig.post("a");
    rig.post(BUYER, "b");

    assertThat(((MemoryProvider) rig.provider.transport()).bus().clear(INBOX)).isEqualTo(1);

    assertThat(rig.unread(BUYER)).isEqualTo(1);
  }
}
