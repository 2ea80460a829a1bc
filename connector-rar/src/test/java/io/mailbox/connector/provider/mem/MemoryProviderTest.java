package io.mailbox.connector.provider.mem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxSubscriber;
import io.mailbox.connector.api.RetriableDeliveryException;
import io.mailbox.connector.api.Subscription;
import io.mailbox.connector.api.SystemHeaders;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MemoryProviderTest {
  private static final Instant NOW = Instant.parse("2026-11-30T10:00:00Z");
  private static final MailAddress INBOX = MailAddress.parse("mem:orders@shop/inbox");

  private MemoryProvider provider;

  @BeforeEach
  void start() {
    provider = new MemoryProvider(Clock.fixed(NOW, ZoneOffset.UTC));
    provider.start();
  }

  private static MailMessage letter(String id) {
    return MailMessage.to(INBOX).id(id).body("{}").build();
  }

  @Test
  void withoutSubscribersAPostIsQueuedForFetch() {
    provider.post(letter("a"));

    assertThat(provider.status(INBOX).unreadCount()).isEqualTo(1);
    assertThat(provider.fetch(INBOX)).map(MailMessage::id).contains("a");
    assertThat(provider.fetch(INBOX)).isEmpty();
  }

  @Test
  void withSubscribersAPostGoesToEveryOneOfThemAndIsNeverQueued() {
    List<String> first = new CopyOnWriteArrayList<>();
    List<String> second = new CopyOnWriteArrayList<>();
    provider.subscribe(INBOX, MailboxSubscriber.of(m -> first.add(m.id())));
    provider.subscribe(INBOX, MailboxSubscriber.of(m -> second.add(m.id())));

    provider.post(letter("a"));

    assertThat(first).containsExactly("a");
    assertThat(second).containsExactly("a");
    assertThat(provider.fetch(INBOX)).isEmpty();
    assertThat(provider.status(INBOX).unreadCount()).isZero();
  }

  @Test
  void aQueuedMessageIsNeverReplayedToALaterSubscriber() {
    provider.post(letter("queued"));
    List<String> received = new CopyOnWriteArrayList<>();

    provider.subscribe(INBOX, MailboxSubscriber.of(m -> received.add(m.id())));

    assertThat(received).isEmpty();
    assertThat(provider.status(INBOX).unreadCount()).isEqualTo(1);
  }

  @Test
  void sendBoundaryStampsEachCopyAndStripsForgedSystemHeaders() {
    MailMessage forged =
        MailMessage.to(INBOX)
            .id("same")
            .body("{}")
            .header(SystemHeaders.SEND_ID, "forged")
            .header("mbx-round", "9")
            .header("app", "kept")
            .build();

    MailMessage first = provider.post(forged);
    MailMessage second = provider.post(forged);

    assertThat(first.sendId()).isPresent().get().isNotEqualTo("forged");
    assertThat(first.sendId()).isNotEqualTo(second.sendId());
    assertThat(first.headers()).doesNotContainKey("mbx-round").containsEntry("app", "kept");
    assertThat(first.header(SystemHeaders.SENT_AT)).contains(NOW.toString());
  }

  @Test
  void retriableFailureOfEverySubscriberPutsOneCopyBackInTheQueue() {
    provider.subscribe(
        INBOX,
        MailboxSubscriber.of(
            m -> {
              throw new RetriableDeliveryException("down");
            }));
    provider.subscribe(
        INBOX,
        MailboxSubscriber.of(
            m -> {
              throw new RetriableDeliveryException("down too");
            }));

    provider.post(letter("a"));

    assertThat(provider.status(INBOX).unreadCount()).isEqualTo(1);
    assertThat(provider.status(INBOX).inFlightCount()).isZero();
  }

  @Test
  void aFatalFailureDiscardsTheMessage() {
    provider.subscribe(
        INBOX,
        MailboxSubscriber.of(
            m -> {
              throw new IllegalArgumentException("bad payload");
            }));

    provider.post(letter("a"));

    assertThat(provider.status(INBOX).unreadCount()).isZero();
  }

  @Test
  void whenOneSubscriberHandledItTheOthersFailureDoesNotRequeue() {
    provider.subscribe(INBOX, MailboxSubscriber.of(m -> {}));
    provider.subscribe(
        INBOX,
        MailboxSubscriber.of(
            m -> {
              throw new RetriableDeliveryException("down");
            }));

    provider.post(letter("a"));

    assertThat(provider.status(INBOX).unreadCount()).isZero();
  }

  @Test
  void aDeliveryStillRunningCountsAsInFlightUntilItSettles() {
    CompletableFuture<Void> running = new CompletableFuture<>();
    provider.subscribe(INBOX, message -> running);

    provider.post(letter("a"));
    assertThat(provider.status(INBOX).inFlightCount()).isEqualTo(1);

    running.complete(null);
    assertThat(provider.status(INBOX).inFlightCount()).isZero();
  }

  @Test
  void unknownAddressReportsUnknownNotAnEmptyOnlineQueue() {
    AddressStatus status = provider.status(MailAddress.parse("mem:never@seen"));

    assertThat(status.state()).isEqualTo(AddressState.UNKNOWN);
    assertThat(status.exists()).isFalse();
    assertThat(status.lastActivity()).isNull();
  }

  @Test
  void drainedAddressStaysOnlineWithItsLastActivity() {
    provider.post(letter("a"));
    provider.fetch(INBOX);

    AddressStatus status = provider.status(INBOX);
    assertThat(status.state()).isEqualTo(AddressState.ONLINE);
    assertThat(status.exists()).isTrue();
    assertThat(status.lastActivity()).isEqualTo(NOW);
  }

  @Test
  void stopClosesEverySubscriptionAndKeepsTheBacklog() {
    Subscription subscription = provider.subscribe(INBOX, MailboxSubscriber.of(m -> {}));
    provider.post(MailMessage.to("mem:other@shop").body("{}").build());

    provider.stop(false);

    assertThat(subscription.isActive()).isFalse();
    assertThat(provider.subscriptionCount()).isZero();
    assertThat(provider.status(INBOX).extensions()).containsEntry("mem.subscriberCount", 0);
    assertThat(provider.status(MailAddress.parse("mem:other@shop")).unreadCount()).isEqualTo(1);
  }

  @Test
  void stopWithPurgeDropsTheBacklog() {
    provider.post(letter("a"));

    provider.stop(true);

    assertThat(provider.status(INBOX).state()).isEqualTo(AddressState.UNKNOWN);
  }

  @Test
  void aStoppedProviderRefusesPosts() {
    provider.stop(false);

    assertThatThrownBy(() -> provider.post(letter("a"))).hasMessageStartingWith("MBX-2001");
  }

  @Test
  void anAddressOfAnotherSchemeIsRefused() {
    assertThatThrownBy(() -> provider.post(MailMessage.to("amqp:a@b").body("").build()))
        .hasMessageStartingWith("MBX-1003");
  }

  @Test
  void unsubscribedCallbackReceivesNothingMore() {
    List<String> received = new CopyOnWriteArrayList<>();
    Subscription subscription =
        provider.subscribe(INBOX, MailboxSubscriber.of(m -> received.add(m.id())));

    subscription.unsubscribe();
    subscription.unsubscribe();
    provider.post(letter("a"));

    assertThat(received).isEmpty();
    assertThat(provider.status(INBOX).unreadCount()).isEqualTo(1);
  }

  @Test
  void enumerateListsEveryAddressSorted() {
    provider.post(MailMessage.to("mem:b@shop").body("").build());
    provider.post(MailMessage.to("mem:a@shop").body("").build());

    assertThat(provider.enumerate().orElseThrow())
        .extracting(s -> s.address().toString())
        .containsExactly("mem://a@shop", "mem://b@shop");
  }
}
