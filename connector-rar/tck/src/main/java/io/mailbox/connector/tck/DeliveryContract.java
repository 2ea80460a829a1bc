package io.mailbox.connector.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.Capabilities;
import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.kernel.MailboxSubscriber;
import io.mailbox.connector.kernel.Subscription;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The conformance kit's first half: where a post goes (broadcast or queue, never both), what the
 * send boundary stamps and strips, how one fetch is settled by one disposition, and what start and
 * stop do to subscriptions and the backlog. Part of {@link ProviderContract}; not meant to be
 * extended on its own.
 */
public abstract class DeliveryContract extends RequestReplyContract {
  // ---- publish vs receive -----------------------------------------------------------------------

  @Test
  void withoutSubscribersAPostIsQueuedForFetch() {
    MailAddress inbox = address("queued");
    provider.post(letter(inbox, "a"));

    await("the post is queued", () -> provider.status(inbox).unreadCount() == 1);
    assertThat(fetchAll(inbox)).extracting(MailMessage::id).containsExactly("a");
    assertThat(fetchAll(inbox)).isEmpty();
  }

  @Test
  void fetchHandsOutInPostOrder() {
    MailAddress inbox = address("fifo");
    for (int i = 0; i < 5; i++) {
      provider.post(letter(inbox, "m" + i));
    }

    await("all five are queued", () -> provider.status(inbox).unreadCount() == 5);
    assertThat(fetchAll(inbox))
        .extracting(MailMessage::id)
        .containsExactly("m0", "m1", "m2", "m3", "m4");
  }

  @Test
  void postsIssuedTogetherAreStoredInOrderEachWithItsOwnSendId() {
    MailAddress inbox = address("post-all");
    List<MailMessage> letters = new java.util.ArrayList<>();
    for (int i = 0; i < 12; i++) {
      letters.add(letter(inbox, "m" + i));
    }

    List<MailMessage> stamped = provider.postAll(letters);

    assertThat(stamped).extracting(MailMessage::id).containsExactlyElementsOf(ids(letters));
    assertThat(stamped)
        .extracting(m -> m.header(SystemHeaders.SEND_ID).orElseThrow())
        .doesNotHaveDuplicates();
    await("all twelve are queued", () -> provider.status(inbox).unreadCount() == 12);
    assertThat(fetchAll(inbox)).extracting(MailMessage::id).containsExactlyElementsOf(ids(letters));
  }

  @Test
  void postsIssuedTogetherWithOneForeignAddressAreRefusedBeforeAnyIsSent() {
    MailAddress inbox = address("post-all-refused");
    MailAddress foreign =
        MailAddress.parse(
            ("mem".equals(provider.scheme()) ? "file" : "mem") + "://contract@test/foreign");

    assertThatThrownBy(() -> provider.postAll(List.of(letter(inbox, "a"), letter(foreign, "b"))))
        .isInstanceOf(io.mailbox.connector.api.MailboxException.class);
    assertThat(provider.status(inbox).unreadCount()).isZero();
    assertThat(fetchAll(inbox)).isEmpty();
  }

  private static List<String> ids(List<MailMessage> messages) {
    return messages.stream().map(MailMessage::id).toList();
  }

  @Test
  void withSubscribersAPostGoesToEveryOneAndIsNeverQueued() {
    MailAddress inbox = address("broadcast");
    List<String> first = new CopyOnWriteArrayList<>();
    List<String> second = new CopyOnWriteArrayList<>();
    provider.subscribe(inbox, MailboxSubscriber.of(m -> first.add(m.id())));
    provider.subscribe(inbox, MailboxSubscriber.of(m -> second.add(m.id())));

    provider.post(letter(inbox, "a"));

    await("both subscribers received it", () -> first.size() == 1 && second.size() == 1);
    assertThat(fetchAll(inbox)).isEmpty();
    assertThat(provider.status(inbox).unreadCount()).isZero();
  }

  @Test
  void aQueuedMessageIsNeverReplayedToALaterSubscriber() {
    assumeTrue(
        !provider.supports(Capabilities.SUBSCRIBERS_TAKE_BACKLOG),
        provider.scheme() + ": hands its backlog to subscribers (tested below)");
    MailAddress inbox = address("late-subscriber");
    provider.post(letter(inbox, "queued"));
    await("queued", () -> provider.status(inbox).unreadCount() == 1);
    List<String> received = new CopyOnWriteArrayList<>();

    provider.subscribe(inbox, MailboxSubscriber.of(m -> received.add(m.id())));

    assertThat(received).isEmpty();
    assertThat(provider.status(inbox).unreadCount()).isEqualTo(1);
  }

  @Test
  void aProviderThatHandsItsBacklogToSubscribersDeliversEachQueuedMessageOnce() {
    assumeCapability(Capabilities.SUBSCRIBERS_TAKE_BACKLOG);
    MailAddress inbox = address("backlog");
    provider.post(letter(inbox, "early-1"));
    provider.post(letter(inbox, "early-2"));
    await("queued", () -> provider.status(inbox).unreadCount() == 2);
    List<String> received = new CopyOnWriteArrayList<>();

    provider.subscribe(inbox, MailboxSubscriber.of(m -> received.add(m.id())));
    provider.post(letter(inbox, "late"));

    await("the backlog and the new post arrived", () -> received.size() >= 3);
    await(
        "nothing is left queued or in flight",
        () -> {
          AddressStatus status = provider.status(inbox);
          return status.unreadCount() == 0 && status.inFlightCount() == 0;
        });
    assertThat(received).containsExactlyInAnyOrder("early-1", "early-2", "late");
    assertThat(received.indexOf("early-1"))
        .as("the backlog comes out in post order")
        .isLessThan(received.indexOf("early-2"));
  }

  @Test
  void addressesAreIsolatedFromEachOther() {
    MailAddress one = address("one");
    MailAddress two = address("two");
    provider.post(letter(one, "a"));

    await("queued at one", () -> provider.status(one).unreadCount() == 1);
    assertThat(fetchAll(two)).isEmpty();
    assertThat(fetchAll(one)).hasSize(1);
  }

  // ---- the send boundary ------------------------------------------------------------------------

  @Test
  void everyCopyGetsItsOwnSendIdAndForgedSystemHeadersAreStripped() {
    MailAddress inbox = address("boundary");
    MailMessage forged =
        MailMessage.to(inbox)
            .id("same")
            .body("{}")
            .header(SystemHeaders.SEND_ID, "forged")
            .header(SystemHeaders.ROUND, "9")
            .header(SystemHeaders.DEAD_LETTER_REASON, "fatal")
            .header("app", "kept")
            .build();

    MailMessage first = provider.post(forged);
    MailMessage second = provider.post(forged);

    assertThat(first.sendId()).isPresent().get().isNotEqualTo("forged");
    assertThat(first.sendId()).isNotEqualTo(second.sendId());
    assertThat(first.header(SystemHeaders.SENT_AT)).isPresent();
    await("both queued", () -> provider.status(inbox).unreadCount() == 2);
    MailMessage received = fetchAll(inbox).get(0);
    assertThat(received.headers())
        .containsEntry("app", "kept")
        .containsEntry(SystemHeaders.ROUND, "1")
        .doesNotContainKey(SystemHeaders.DEAD_LETTER_REASON);
    assertThat(received.sendId()).isEqualTo(first.sendId());
  }

  // ---- dispositions -----------------------------------------------------------------------------

  @Test
  void aLeasedMessageIsInFlightUntilHandled() {
    assumeCapability(Capabilities.LEASE);
    MailAddress inbox = address("lease");

    Delivery delivery = queueOneAndLease(inbox, "a");

    AddressStatus during = provider.status(inbox);
    assertThat(during.unreadCount()).isZero();
    assertThat(during.inFlightCount()).isEqualTo(1);
    assertThat(delivery.ack()).isTrue();
    assertThat(provider.status(inbox).inFlightCount()).isZero();
    assertThat(fetchAll(inbox)).isEmpty();
  }

  @Test
  void oneFetchIsOneDispositionARepeatReturnsFalseAndChangesNothing() {
    assumeCapability(Capabilities.LEASE);
    MailAddress inbox = address("once");
    Delivery delivery = queueOneAndLease(inbox, "a");

    assertThat(delivery.ack()).isTrue();
    assertThat(delivery.settle(Disposition.UNHANDLED)).isFalse();
    assertThat(
            provider.settle(
                inbox, delivery.key(), delivery.leaseId().orElseThrow(), Disposition.UNHANDLED))
        .isFalse();
    assertThat(provider.status(inbox).unreadCount()).isZero();
  }

  @Test
  void anUnhandledMessageGoesBackAndTheNextHandOutIsTheNextRound() {
    assumeCapability(Capabilities.LEASE);
    MailAddress inbox = address("unhandled");

    Delivery first = queueOneAndLease(inbox, "a");
    assertThat(first.message().header(SystemHeaders.ROUND)).contains("1");
    assertThat(first.settle(Disposition.UNHANDLED)).isTrue();

    await("back in the queue", () -> provider.status(inbox).unreadCount() == 1);
    Delivery second = provider.fetch(inbox, FetchOptions.leased()).get(0);
    assertThat(second.key()).isEqualTo(first.key());
    assertThat(second.message().header(SystemHeaders.ROUND)).contains("2");
    assertThat(second.ack()).isTrue();
  }

  @Test
  void aDiscardedCopyIsNeverHandedOutAgain() {
    assumeCapability(Capabilities.LEASE);
    MailAddress inbox = address("discard");

    assertThat(queueOneAndLease(inbox, "a").settle(Disposition.DISCARD)).isTrue();

    assertThat(fetchAll(inbox)).isEmpty();
    assertThat(provider.status(inbox).inFlightCount()).isZero();
  }

  @Test
  void settlingByTheSendersMessageIdInsteadOfTheKeyTouchesNothing() {
    assumeCapability(Capabilities.LEASE);
    MailAddress inbox = address("by-id");
    Delivery delivery = queueOneAndLease(inbox, "order-42");

    assertThat(
            provider.settle(
                inbox, "order-42", delivery.leaseId().orElseThrow(), Disposition.HANDLED))
        .isFalse();
    assertThat(provider.status(inbox).inFlightCount()).isEqualTo(1);
    assertThat(delivery.ack()).isTrue();
  }

  @Test
  void anUndeclaredDispositionIsRefusedBeforeAnythingChanges() {
    assumeCapability(Capabilities.LEASE);
    assumeTrue(!provider.supports("disposition:bounce"));
    MailAddress inbox = address("custom");
    Delivery delivery = queueOneAndLease(inbox, "a");

    assertThatThrownBy(() -> delivery.settle(Disposition.custom("bounce")))
        .hasMessageStartingWith(ErrorCode.UNSUPPORTED_CAPABILITY.code());
    assertThat(provider.status(inbox).inFlightCount()).isEqualTo(1);
    assertThat(delivery.ack()).as("the refused attempt did not use up the disposition").isTrue();
  }

  @Test
  void anAutoAckedDeliveryHasNothingToSettle() {
    MailAddress inbox = address("auto");
    provider.post(letter(inbox, "a"));
    await("queued", () -> provider.status(inbox).unreadCount() == 1);

    Delivery delivery = provider.fetch(inbox, FetchOptions.autoAck()).get(0);

    assertThat(delivery.leaseId()).isEmpty();
    assertThat(delivery.settle(Disposition.UNHANDLED)).isFalse();
    assertThat(provider.status(inbox).unreadCount()).isZero();
  }

  // ---- lifecycle --------------------------------------------------------------------------------

  @Test
  void unsubscribedCallbacksReceiveNothingMore() {
    MailAddress inbox = address("unsubscribed");
    List<String> received = new CopyOnWriteArrayList<>();
    Subscription subscription =
        provider.subscribe(inbox, MailboxSubscriber.of(m -> received.add(m.id())));

    subscription.unsubscribe();
    subscription.unsubscribe();
    provider.post(letter(inbox, "a"));

    await("queued instead", () -> provider.status(inbox).unreadCount() == 1);
    assertThat(received).isEmpty();
    assertThat(subscription.isActive()).isFalse();
  }

  @Test
  void stopClosesEverySubscriptionAndKeepsTheBacklog() {
    MailAddress inbox = address("stop");
    Subscription subscription =
        provider.subscribe(address("stop-sub"), MailboxSubscriber.of(m -> {}));
    provider.post(letter(inbox, "a"));
    await("queued", () -> provider.status(inbox).unreadCount() == 1);

    provider.stop(false);

    assertThat(subscription.isActive()).isFalse();
    assertThat(provider.subscriptionCount()).isZero();
    provider.start();
    assertThat(fetchAll(inbox)).extracting(MailMessage::id).containsExactly("a");
  }

  @Test
  void aStoppedProviderRefusesPostsWithACode() {
    provider.stop(false);

    assertThatThrownBy(() -> provider.post(letter(address("stopped"), "a")))
        .hasMessageStartingWith(ErrorCode.NOT_STARTED.code());
    provider.start();
  }

  @Test
  void anAddressOfAnotherSchemeIsRefused() {
    String other = provider.scheme().equals("zzz") ? "yyy" : "zzz";

    assertThatThrownBy(() -> provider.post(MailMessage.to(other + ":a@b").body("").build()))
        .hasMessageStartingWith(ErrorCode.UNKNOWN_SCHEME.code());
  }

  @Test
  void everyOperationRefusesAnAddressOfAnotherScheme() {
    MailAddress foreign =
        MailAddress.parse((provider.scheme().equals("zzz") ? "yyy" : "zzz") + "://a@b/c");

    List<Runnable> operations =
        List.of(
            () -> provider.fetch(foreign, FetchOptions.autoAck()),
            () -> provider.settle(foreign, "key", "lease", Disposition.HANDLED),
            () -> provider.subscribe(foreign, MailboxSubscriber.of(message -> {})),
            () -> provider.recover(foreign),
            () -> provider.peekParked(foreign, 1),
            () -> provider.purgeParked(foreign, null),
            () -> provider.removeQueued(foreign, null),
            () -> provider.inFlight(foreign, 1));
    for (Runnable operation : operations) {
      assertThatThrownBy(operation::run).hasMessageStartingWith(ErrorCode.UNKNOWN_SCHEME.code());
    }
  }
}
