package io.mailbox.connector.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.Capabilities;
import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.RetriableDeliveryException;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.kernel.MailboxSubscriber;
import io.mailbox.connector.kernel.Subscription;
import io.mailbox.connector.spi.Transport;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The provider conformance kit: the contract every provider keeps, whatever its transport. A
 * provider's test extends this class and supplies a new, unstarted provider; tests of capabilities
 * the provider does not declare are skipped (an honest "cannot"), never weakened. Transports that
 * deliver asynchronously are waited for up to {@link #eventually()}.
 *
 * <p>Published as {@code io.mailbox:connector-rar:<version>:jar:tck} (with JUnit 5 and AssertJ on
 * the test class path), so a provider built outside this repository runs the same suite as the
 * shipped ones; {@code examples/tiny-provider} does exactly that (docs/providers.md).
 */
public abstract class ProviderContract {
  protected MailboxProvider provider;
  private final String run = UUID.randomUUID().toString().substring(0, 8);

  /** A new, not yet started transport; the kit puts it under the kernel's rules. */
  protected abstract Transport newTransport();

  /** How long an asynchronous transport may take to show an effect. */
  protected Duration eventually() {
    return Duration.ofSeconds(5);
  }

  /** A fresh address of the provider's scheme, unique to this test run. */
  protected MailAddress address(String name) {
    return MailAddress.parse(provider.scheme() + "://contract@test/" + name + "-" + run);
  }

  @BeforeEach
  void startProvider() {
    provider = MailboxProvider.of(newTransport());
    provider.start();
  }

  @AfterEach
  void stopProvider() {
    provider.stop(true);
  }

  private static MailMessage letter(MailAddress to, String id) {
    return MailMessage.to(to).id(id).body("{\"id\":\"" + id + "\"}").build();
  }

  private List<MailMessage> fetchAll(MailAddress address) {
    return provider.fetch(address, FetchOptions.autoAck().limit(100)).stream()
        .map(Delivery::message)
        .toList();
  }

  protected void await(String what, BooleanSupplier condition) {
    io.mailbox.connector.testsupport.Eventually.await(what, eventually(), condition);
  }

  private void assumeCapability(String capability) {
    assumeTrue(
        provider.supports(capability), provider.scheme() + ": does not declare " + capability);
  }

  private Delivery queueOneAndLease(MailAddress inbox, String id) {
    provider.post(letter(inbox, id));
    await("queued", () -> provider.status(inbox).unreadCount() == 1);
    return provider.fetch(inbox, FetchOptions.leased()).get(0);
  }

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

  // ---- peek -------------------------------------------------------------------------------------

  @Test
  void peekReturnsCopiesAndChangesNothing() {
    assumeCapability(Capabilities.PEEK);
    MailAddress inbox = address("peek");
    provider.post(letter(inbox, "a"));
    provider.post(letter(inbox, "b"));
    await("queued", () -> provider.status(inbox).unreadCount() == 2);
    AddressStatus before = provider.status(inbox);

    List<Delivery> peeked = provider.fetch(inbox, FetchOptions.peek(5));

    assertThat(peeked).extracting(d -> d.message().id()).containsExactly("a", "b");
    assertThat(peeked.get(0).settle(Disposition.HANDLED)).isFalse();
    AddressStatus after = provider.status(inbox);
    assertThat(after.unreadCount()).isEqualTo(2);
    assertThat(after.inFlightCount()).isZero();
    assertThat(after.lastActivity()).isEqualTo(before.lastActivity());
  }

  @Test
  void peekOnAnIdleAddressIsEmpty() {
    assumeCapability(Capabilities.PEEK);

    assertThat(provider.fetch(address("idle"), FetchOptions.peek(5))).isEmpty();
  }

  @Test
  void peekIsRefusedWhereItIsNotDeclared() {
    assumeTrue(!provider.supports(Capabilities.PEEK));

    assertThatThrownBy(() -> provider.fetch(address("no-peek"), FetchOptions.peek(1)))
        .hasMessageStartingWith(ErrorCode.UNSUPPORTED_CAPABILITY.code());
  }

  @Test
  void copiesInFlightAreListedWithTheirLeaseUntilSettled() {
    assumeCapability(Capabilities.LEASE);
    MailAddress inbox = address("in-flight");
    provider.post(letter(inbox, "a"));
    provider.post(letter(inbox, "b"));
    await("queued", () -> provider.status(inbox).unreadCount() == 2);

    Delivery first = provider.fetch(inbox, FetchOptions.leased(Duration.ofMinutes(5))).get(0);
    Delivery second = provider.fetch(inbox, FetchOptions.leased(Duration.ZERO)).get(0);

    List<io.mailbox.connector.api.InFlightCopy> listed = provider.inFlight(inbox, 10);
    assertThat(listed).extracting(c -> c.messageId()).containsExactlyInAnyOrder("a", "b");
    var a = listed.stream().filter(c -> c.messageId().equals("a")).findFirst().orElseThrow();
    assertThat(a.key()).isEqualTo(first.key());
    assertThat(a.leaseId()).isEqualTo(first.leaseId().orElseThrow());
    assertThat(a.expiresAt()).isNotNull();
    assertThat(a.isOverdueAt(java.time.Instant.now())).isFalse();
    var b = listed.stream().filter(c -> c.messageId().equals("b")).findFirst().orElseThrow();
    assertThat(b.expiresAt()).as("a lease without timeout never expires").isNull();

    assertThat(first.ack()).isTrue();
    assertThat(provider.inFlight(inbox, 10)).extracting(c -> c.messageId()).containsExactly("b");
    assertThat(second.ack()).isTrue();
  }

  // ---- remove ----------------------------------------------------------------------------------

  @Test
  void removingByKeyTakesOnlyThatQueuedCopyAndRemovingAllLeavesWhatIsInFlight() {
    assumeCapability(Capabilities.REMOVE);
    MailAddress inbox = address("remove");
    MailMessage first = provider.post(letter(inbox, "a"));
    provider.post(letter(inbox, "b"));
    provider.post(letter(inbox, "c"));
    await("queued", () -> provider.status(inbox).unreadCount() == 3);

    assertThat(provider.removeQueued(inbox, first.sendId().orElseThrow())).isEqualTo(1);
    assertThat(provider.removeQueued(inbox, "no-such-key")).isZero();
    Delivery held = provider.fetch(inbox, FetchOptions.leased()).get(0);
    assertThat(provider.removeQueued(inbox, null)).as("only c is still queued").isEqualTo(1);

    assertThat(provider.status(inbox).unreadCount()).isZero();
    assertThat(held.message().id()).isEqualTo("b");
    assertThat(held.ack()).as("the copy in flight was left alone").isTrue();
  }

  @Test
  void removingIsRefusedWhereItIsNotDeclared() {
    assumeTrue(!provider.supports(Capabilities.REMOVE));

    assertThatThrownBy(() -> provider.removeQueued(address("no-remove"), null))
        .hasMessageStartingWith(ErrorCode.UNSUPPORTED_CAPABILITY.code());
  }

  // ---- push failures ----------------------------------------------------------------------------

  @Test
  void aRetriableFailureOfEverySubscriberPutsOneCopyBack() {
    MailAddress inbox = address("retriable");
    for (int i = 0; i < 2; i++) {
      provider.subscribe(
          inbox,
          MailboxSubscriber.of(
              m -> {
                throw new RetriableDeliveryException("down");
              }));
    }

    provider.post(letter(inbox, "a"));

    await("one copy back in the queue", () -> provider.status(inbox).unreadCount() == 1);
    await("nothing in flight", () -> provider.status(inbox).inFlightCount() == 0);
  }

  @Test
  void aFatalFailureDiscardsTheMessage() {
    MailAddress inbox = address("fatal");
    List<String> calls = new CopyOnWriteArrayList<>();
    provider.subscribe(
        inbox,
        MailboxSubscriber.of(
            m -> {
              calls.add(m.id());
              throw new IllegalArgumentException("bad payload");
            }));

    provider.post(letter(inbox, "a"));

    await("the subscriber ran", () -> calls.size() == 1);
    await("settled", () -> provider.status(inbox).inFlightCount() == 0);
    assertThat(provider.status(inbox).unreadCount()).isZero();
  }

  // ---- status -----------------------------------------------------------------------------------

  @Test
  void anAddressNeverSeenIsUnknownNotAnEmptyOnlineQueue() {
    AddressStatus status = provider.status(address("never-seen"));

    assertThat(status.state()).isEqualTo(AddressState.UNKNOWN);
    assertThat(status.exists()).isFalse();
    assertThat(status.lastActivity()).isNull();
  }

  @Test
  void aDrainedAddressStaysOnline() {
    MailAddress inbox = address("drained");
    provider.post(letter(inbox, "a"));
    await("queued", () -> provider.status(inbox).unreadCount() == 1);
    fetchAll(inbox);

    AddressStatus status = provider.status(inbox);
    assertThat(status.state()).isEqualTo(AddressState.ONLINE);
    assertThat(status.exists()).isTrue();
    assertThat(status.lastActivity()).isNotNull();
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

  // ---- leases over time -------------------------------------------------------------------------

  @Test
  void anExpiredLeaseHandsTheSameCopyOutAgainAndTheLateSettleIsRefused() {
    assumeCapability(Capabilities.LEASE);
    MailAddress inbox = address("expiry");
    provider.post(letter(inbox, "a"));
    await("queued", () -> provider.status(inbox).unreadCount() == 1);
    Delivery first = provider.fetch(inbox, FetchOptions.leased(Duration.ofMillis(200))).get(0);

    List<Delivery> again = new java.util.ArrayList<>();
    await(
        "handed out again after its lease",
        () -> {
          again.addAll(provider.fetch(inbox, FetchOptions.leased()));
          return !again.isEmpty();
        });

    Delivery second = again.get(0);
    assertThat(second.key()).isEqualTo(first.key());
    assertThat(second.message().header(SystemHeaders.ROUND)).contains("2");
    assertThat(first.ack()).as("a settle under the expired lease").isFalse();
    assertThat(second.ack()).isTrue();
    assertThat(fetchAll(inbox)).isEmpty();
  }

  @Test
  void recoverPutsExpiredLeasesBackAtOnceAndIsIdempotent() throws InterruptedException {
    assumeCapability(Capabilities.LEASE);
    assumeCapability(Capabilities.RECOVER);
    MailAddress inbox = address("recover");
    provider.post(letter(inbox, "a"));
    await("queued", () -> provider.status(inbox).unreadCount() == 1);
    provider.fetch(inbox, FetchOptions.leased(Duration.ofMillis(100)));
    Thread.sleep(300);

    io.mailbox.connector.api.RecoverResult result = provider.recover(inbox);

    assertThat(result.supported()).isTrue();
    assertThat(result.reclaimed()).isEqualTo(1);
    await("back in the queue", () -> provider.status(inbox).unreadCount() == 1);
    assertThat(provider.status(inbox).inFlightCount()).isZero();
    assertThat(provider.recover(inbox).reclaimed()).as("nothing left to reclaim").isZero();
  }

  @Test
  void aLeaseWithoutTimeoutNeverExpires() throws InterruptedException {
    assumeCapability(Capabilities.LEASE);
    MailAddress inbox = address("no-timeout");
    provider.post(letter(inbox, "a"));
    await("queued", () -> provider.status(inbox).unreadCount() == 1);
    Delivery held = provider.fetch(inbox, FetchOptions.leased(Duration.ZERO)).get(0);
    Thread.sleep(500);

    if (provider.supports(Capabilities.RECOVER)) {
      assertThat(provider.recover(inbox).reclaimed()).isZero();
    }
    assertThat(provider.fetch(inbox, FetchOptions.leased())).isEmpty();
    assertThat(provider.status(inbox).inFlightCount()).isEqualTo(1);
    assertThat(held.ack()).isTrue();
  }

  // ---- locate, parked records, status -----------------------------------------------------------

  @Test
  void locateFindsEveryCopyOfAMessageIdWithItsState() {
    assumeCapability(Capabilities.LOCATE);
    assumeCapability(Capabilities.LEASE);
    MailAddress inbox = address("locate");
    MailAddress other = address("locate-other");
    String id = "order-" + UUID.randomUUID();
    provider.post(letter(inbox, id));
    provider.post(letter(inbox, "someone-else"));
    provider.post(letter(other, id));
    await(
        "queued",
        () ->
            provider.status(inbox).unreadCount() == 2 && provider.status(other).unreadCount() == 1);
    Delivery held = provider.fetch(inbox, FetchOptions.leased()).get(0);
    assertThat(held.message().id()).isEqualTo(id);

    List<io.mailbox.connector.api.LocatedCopy> found = provider.locate(id);

    assertThat(found)
        .extracting(c -> c.address() + " " + c.state())
        .containsExactlyInAnyOrder(inbox + " IN_FLIGHT", other + " QUEUED");
    var inFlight = found.stream().filter(c -> c.address().equals(inbox)).findFirst().orElseThrow();
    assertThat(inFlight.key()).isEqualTo(held.key());
    assertThat(inFlight.leaseId()).isEqualTo(held.leaseId().orElseThrow());
    assertThat(provider.locate("no-such-id-" + UUID.randomUUID())).isEmpty();
    assertThat(held.ack()).isTrue();
  }

  @Test
  void aDeadLetterGivenUpAtTheCapOfTheChainIsParkedNeverHandedOutAndCanBePurged() {
    assumeCapability(Capabilities.LEASE);
    assumeCapability(Capabilities.PARKED);
    io.mailbox.connector.kernel.DeadLetterPolicy policy =
        io.mailbox.connector.kernel.DeadLetterPolicy.defaults();
    provider.enableDeadLetterQueue(policy);
    MailAddress inbox = address("parking");
    MailAddress dead = policy.deadLetterTopic(inbox);
    String id = "poison-" + UUID.randomUUID();

    assertThat(queueOneAndLease(inbox, id).settle(Disposition.DISCARD)).isTrue();
    await("dead-lettered", () -> provider.status(dead).unreadCount() == 1);
    Delivery record = provider.fetch(dead, FetchOptions.leased()).get(0);
    assertThat(record.message().header(SystemHeaders.DEAD_LETTER_REASON)).isPresent();
    assertThat(record.settle(Disposition.DISCARD)).isTrue();

    await("parked", () -> provider.peekParked(dead, 10).size() == 1);
    MailMessage parked = provider.peekParked(dead, 10).get(0);
    assertThat(parked.id()).isEqualTo(id);
    assertThat(parked.header(SystemHeaders.DEAD_LETTER_TERMINAL)).contains("true");
    assertThat(provider.status(dead).unreadCount()).isZero();
    assertThat(fetchAll(dead)).as("a parked record is never handed out").isEmpty();
    assertThat(provider.purgeParked(dead, "no-such-key")).isZero();
    assertThat(provider.purgeParked(dead, parked.sendId().orElseThrow())).isEqualTo(1);
    assertThat(provider.peekParked(dead, 10)).isEmpty();
  }

  @Test
  void parkedRecordsAreRefusedWhereTheyAreNotDeclared() {
    assumeTrue(!provider.supports(Capabilities.PARKED));

    assertThatThrownBy(() -> provider.peekParked(address("no-parked"), 1))
        .hasMessageStartingWith(ErrorCode.UNSUPPORTED_CAPABILITY.code());
  }

  @Test
  void statusAndEnumerationDescribeAnAddressAlike() {
    assumeCapability(Capabilities.STATUS);
    assumeCapability(Capabilities.LEASE);
    MailAddress inbox = address("census");
    provider.post(letter(inbox, "a"));
    provider.post(letter(inbox, "b"));
    await("queued", () -> provider.status(inbox).unreadCount() == 2);
    Delivery held = provider.fetch(inbox, FetchOptions.leased()).get(0);

    AddressStatus status = provider.status(inbox);

    assertThat(status.address()).isEqualTo(inbox);
    assertThat(status.state()).isEqualTo(AddressState.ONLINE);
    assertThat(status.unreadCount()).isEqualTo(1);
    assertThat(status.inFlightCount()).isEqualTo(1);
    assertThat(status.lastActivity()).isNotNull();
    if (provider.supports(Capabilities.ENUMERATE)) {
      AddressStatus listed =
          provider.enumerate().orElseThrow().stream()
              .filter(s -> s.address().equals(inbox))
              .findFirst()
              .orElseThrow(() -> new AssertionError(inbox + " is not enumerated"));
      assertThat(listed.unreadCount()).isEqualTo(1);
      assertThat(listed.inFlightCount()).isEqualTo(1);
    }
    assertThat(held.ack()).isTrue();
  }
}
