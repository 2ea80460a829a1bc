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
import io.mailbox.connector.spi.Transport;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The kit's cases for what an operator looks at and removes: peek, copies in flight, removing and
 * purging queued copies, locating a message id, parked records and their count. A provider runs
 * them, with the rest of the kit, by extending {@link ProviderContract}; each case that needs a
 * capability is skipped where the provider does not declare it, and the refusal is checked instead.
 */
public abstract class InspectionContract extends DeliveryContract {
  // ---- peek -------------------------------------------------------------------------------------

  @Test
  void peekReturnsCopiesAndChangesNothing() {
    MailAddress inbox = address("peek");
    assumeCanAt(Capabilities.PEEK, inbox);
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

  /**
   * Where the provider can peek, the status measures how long the head of the queue has waited
   * ({@code <scheme>.oldestUnreadMs}, since its {@code mbx-sent-at}): the first message posted, not
   * the last; once that one is taken, the next one's; 0 when nothing waits.
   */
  @Test
  void theOldestUnreadAgeIsThatOfTheHeadOfTheQueue() {
    assumeCapability(Capabilities.LEASE);
    MailAddress inbox = address("oldest-unread");
    assumeCanAt(Capabilities.PEEK, inbox);
    Instant first = sentAt(provider.post(letter(inbox, "first")));
    await("the first waited a second", () -> oldestUnreadMs(inbox) >= 1_000);
    Instant second = sentAt(provider.post(letter(inbox, "second")));
    await("both queued", () -> provider.status(inbox).unreadCount() == 2);
    // Within 50 ms: a provider may stamp the age from its own write clock (jdbc:'s sequence), a
    // moment after the send boundary's mbx-sent-at; the newest's age would be about 0.
    assertThat(oldestUnreadMs(inbox))
        .as("the head's age, not the newest's")
        .isGreaterThanOrEqualTo(Duration.between(first, second).toMillis() - 50);

    Delivery head = provider.fetch(inbox, FetchOptions.leased().limit(1)).get(0);
    assertThat(head.message().id()).isEqualTo("first");
    assertThat(head.settle(Disposition.HANDLED)).isTrue();
    Instant askedAfter = Instant.now();
    long secondWaited = oldestUnreadMs(inbox);
    assertThat(secondWaited)
        .as("now the second's age")
        .isLessThanOrEqualTo(Duration.between(second, Instant.now()).toMillis() + 50)
        .isLessThan(Duration.between(first, askedAfter).toMillis());

    assertThat(provider.fetch(inbox, FetchOptions.leased()).get(0).settle(Disposition.HANDLED))
        .isTrue();
    assertThat(oldestUnreadMs(inbox)).as("nothing waits").isZero();
  }

  /**
   * A peek lists what is queued, not what is leased, and leaves it where it was: the next fetch
   * takes the peeked messages in their order, at their first delivery (no round added by looking).
   */
  @Test
  void peekListsWhatIsQueuedNotWhatIsLeasedAndLeavesItInPlace() {
    assumeCapability(Capabilities.LEASE);
    MailAddress inbox = address("peek-in-place");
    assumeCanAt(Capabilities.PEEK, inbox);
    Delivery leased = queueOneAndLease(inbox, "a");
    provider.post(letter(inbox, "b"));
    provider.post(letter(inbox, "c"));
    await("queued", () -> provider.status(inbox).unreadCount() == 2);

    assertThat(provider.fetch(inbox, FetchOptions.peek(5)))
        .extracting(d -> d.message().id())
        .containsExactly("b", "c");
    assertThat(provider.fetch(inbox, FetchOptions.peek(1)))
        .extracting(d -> d.message().id())
        .containsExactly("b");

    // Settled first: a Kafka share-group member polls again only once its last batch is settled.
    assertThat(leased.ack()).isTrue();
    List<Delivery> taken = provider.fetch(inbox, FetchOptions.leased().limit(5));
    assertThat(taken).extracting(d -> d.message().id()).containsExactly("b", "c");
    assertThat(taken)
        .as("looking added no round")
        .allSatisfy(
            d ->
                assertThat(d.message().header(SystemHeaders.ROUND))
                    .isEqualTo(leased.message().header(SystemHeaders.ROUND)));
    taken.forEach(d -> assertThat(d.ack()).isTrue());
  }

  @Test
  void peekOnAnIdleAddressIsEmpty() {
    MailAddress idle = address("idle");
    assumeCanAt(Capabilities.PEEK, idle);

    assertThat(provider.fetch(idle, FetchOptions.peek(5))).isEmpty();
  }

  /** Refused where it is not declared, or declared but not possible at that address. */
  @Test
  void peekIsRefusedWhereItIsNotPossible() {
    MailAddress inbox = address("no-peek");
    assumeTrue(!provider.can(Capabilities.PEEK, inbox));
    provider.post(letter(inbox, "a"));
    await("queued", () -> provider.status(inbox).unreadCount() == 1);

    assertThatThrownBy(() -> provider.fetch(inbox, FetchOptions.peek(1)))
        .hasMessageStartingWith(ErrorCode.UNSUPPORTED_CAPABILITY.code());
    assertThat(provider.status(inbox).unreadCount()).as("nothing was taken").isEqualTo(1);
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
    MailAddress inbox = address("remove");
    assumeCanAt(Capabilities.REMOVE, inbox);
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
  void removingIsRefusedWhereItIsNotPossible() {
    MailAddress inbox = address("no-remove");
    assumeTrue(!provider.can(Capabilities.REMOVE, inbox));

    assertThatThrownBy(() -> provider.removeQueued(inbox, "some-key"))
        .hasMessageStartingWith(ErrorCode.UNSUPPORTED_CAPABILITY.code());
    if (!provider.can(Capabilities.PURGE, inbox)) {
      assertThatThrownBy(() -> provider.removeQueued(inbox, null))
          .hasMessageStartingWith(ErrorCode.UNSUPPORTED_CAPABILITY.code());
    }
  }

  /**
   * A transport that can purge but not remove one copy ({@code spi.Purging}): the queue empties.
   */
  @Test
  void aPurgeWithoutRemoveTakesEveryQueuedCopyButNoneInFlight() {
    MailAddress inbox = address("purge-only");
    assumeTrue(
        provider.can(Capabilities.PURGE, inbox) && !provider.can(Capabilities.REMOVE, inbox));
    for (String id : List.of("a", "b", "c")) {
      provider.post(MailMessage.to(inbox).id(id).body("{}").build());
    }
    Delivery held = provider.fetch(inbox, FetchOptions.leased()).get(0);

    assertThat(provider.removeQueued(inbox, null)).isEqualTo(2);
    assertThat(provider.status(inbox).unreadCount()).isZero();
    assertThat(held.ack()).as("the copy in flight was left alone").isTrue();
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
    String id = "poison-" + UUID.randomUUID();
    MailAddress dead = oneDeadLetter("parking", id);
    assumeCanAt(Capabilities.PARKED, dead);
    Delivery record = provider.fetch(dead, FetchOptions.leased()).get(0);
    assertThat(record.message().header(SystemHeaders.DEAD_LETTER_REASON)).isPresent();
    assertThat(record.settle(Disposition.DISCARD)).isTrue();

    await("parked", () -> provider.peekParked(dead, 10).size() == 1);
    MailMessage parked = provider.peekParked(dead, 10).get(0);
    assertThat(parked.id()).isEqualTo(id);
    assertThat(parked.header(SystemHeaders.DEAD_LETTER_TERMINAL)).contains("true");
    assertThat(provider.status(dead).unreadCount()).isZero();
    assertThat(fetchAll(dead)).as("a parked record is never handed out").isEmpty();
    if (provider.can(Capabilities.PARKED_REMOVE, dead)) {
      assertThat(provider.purgeParked(dead, "no-such-key")).isZero();
      assertThat(provider.purgeParked(dead, parked.sendId().orElseThrow())).isEqualTo(1);
    } else {
      String key = parked.sendId().orElseThrow();
      assertThatThrownBy(() -> provider.purgeParked(dead, key))
          .as("one record cannot be taken out here: refused, not faked")
          .hasMessageStartingWith(ErrorCode.UNSUPPORTED_CAPABILITY.code());
      assertThat(provider.peekParked(dead, 10)).as("the refusal changed nothing").hasSize(1);
      assertThat(provider.purgeParked(dead, null)).isEqualTo(1);
    }
    assertThat(provider.peekParked(dead, 10)).isEmpty();
    assertThat(parkedCount(dead)).isZero();
  }

  /**
   * What an operator does with a dead letter (list it, replay it, delete it) needs peek and remove
   * at the dead-letter address, even where a provider cannot do them at a live one: the record is
   * listed with its reason, looking changes nothing (no round added, still unread), and it is
   * removed by its key.
   */
  @Test
  void aDeadLetterRecordIsListedAndRemovedByItsKey() {
    assumeCapability(Capabilities.LEASE);
    String id = "dead-" + UUID.randomUUID();
    MailAddress dead = oneDeadLetter("dead-letter-listed", id);
    assumeCanAt(Capabilities.PEEK, dead);
    assumeCanAt(Capabilities.REMOVE, dead);

    List<Delivery> listed = provider.fetch(dead, FetchOptions.peek(10));
    List<Delivery> again = provider.fetch(dead, FetchOptions.peek(10));

    assertThat(listed).extracting(d -> d.message().id()).containsExactly(id);
    assertThat(listed.get(0).message().header(SystemHeaders.DEAD_LETTER_REASON)).isPresent();
    assertThat(again.get(0).message().headers())
        .as("looking twice reads the same record")
        .isEqualTo(listed.get(0).message().headers());
    assertThat(provider.status(dead).unreadCount()).isEqualTo(1);
    assertThat(provider.removeQueued(dead, "no-such-key")).isZero();
    assertThat(provider.removeQueued(dead, listed.get(0).key())).isEqualTo(1);
    assertThat(provider.fetch(dead, FetchOptions.peek(10))).isEmpty();
    assertThat(provider.status(dead).unreadCount()).isZero();
  }

  /**
   * Wherever a provider keeps its parked records (listable or not), its status counts them as
   * {@code <scheme>.parkedCount}: the measure the default {@code parked} alert reads. Skipped for a
   * transport that keeps none ({@code Transport.park}'s default logs the record instead).
   */
  @Test
  void aParkedRecordIsCountedInTheStatusWhereverItIsKept() {
    assumeCapability(Capabilities.LEASE);
    assumeCapability(Capabilities.STATUS);
    assumeTrue(keepsParkedRecords(), provider.scheme() + ": keeps no parked records");
    MailAddress dead = oneDeadLetter("parked-count", "poison");
    assertThat(parkedCount(dead)).isZero();
    assertThat(provider.fetch(dead, FetchOptions.leased()).get(0).settle(Disposition.DISCARD))
        .isTrue();

    await("counted as parked", () -> parkedCount(dead) == 1);
    assertThat(provider.status(dead).unreadCount()).isZero();
  }

  /**
   * Dead letters message {@code id} of a fresh address (leased, then discarded, the dead-letter
   * queue on) and waits for its record; returns the dead-letter address.
   */
  private MailAddress oneDeadLetter(String name, String id) {
    io.mailbox.connector.kernel.DeadLetterPolicy policy =
        io.mailbox.connector.kernel.DeadLetterPolicy.defaults();
    provider.enableDeadLetterQueue(policy);
    MailAddress inbox = address(name);
    MailAddress dead = policy.deadLetterTopic(inbox);
    assertThat(queueOneAndLease(inbox, id).settle(Disposition.DISCARD)).isTrue();
    await("dead-lettered", () -> provider.status(dead).unreadCount() == 1);
    return dead;
  }

  private boolean keepsParkedRecords() {
    try {
      return transport
              .getClass()
              .getMethod("park", MailAddress.class, MailMessage.class)
              .getDeclaringClass()
          != Transport.class;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  private long oldestUnreadMs(MailAddress address) {
    Object age = provider.status(address).extensions().get(provider.scheme() + ".oldestUnreadMs");
    assertThat(age).as(provider.scheme() + ".oldestUnreadMs").isInstanceOf(Number.class);
    return ((Number) age).longValue();
  }

  private static Instant sentAt(MailMessage posted) {
    return Instant.parse(posted.header(SystemHeaders.SENT_AT).orElseThrow());
  }

  private long parkedCount(MailAddress address) {
    Object count = provider.status(address).extensions().get(provider.scheme() + ".parkedCount");
    assertThat(count).as(provider.scheme() + ".parkedCount").isInstanceOf(Number.class);
    return ((Number) count).longValue();
  }

  @Test
  void parkedRecordsAreRefusedWhereTheyAreNotPossible() {
    MailAddress inbox = address("no-parked");
    assumeTrue(!provider.can(Capabilities.PARKED, inbox));

    assertThatThrownBy(() -> provider.peekParked(inbox, 1))
        .hasMessageStartingWith(ErrorCode.UNSUPPORTED_CAPABILITY.code());
  }
}
