package io.mailbox.connector.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.spi.Peeking;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The oldest unread age is told only from evidence: a peeked head with its stamp. Whatever stands
 * in the way leaves it unmeasured (the key absent), never a zero that would look fine.
 */
class OldestUnreadTest {
  private static final MailAddress ORDERS = MailAddress.parse("mem://orders@shop");
  private static final String KEY = "mem.oldestUnreadMs";

  @Test
  void theHeadsStampGivesTheAge() {
    Instant tenSecondsAgo = Instant.now().minusSeconds(10);
    AddressStatus measured =
        OldestUnread.added(peeking(() -> List.of(stamped(tenSecondsAgo))), waiting(3));

    assertThat((Long) measured.extensions().get(KEY)).isBetween(10_000L, 15_000L);
    assertThat(measured.unreadCount()).isEqualTo(3);
  }

  @Test
  void anEmptyAddressWaitsZeroWithoutAPeek() {
    AddressStatus measured =
        OldestUnread.added(
            peeking(
                () -> {
                  throw new AssertionError("no peek for an empty address");
                }),
            waiting(0));

    assertThat(measured.extensions()).containsEntry(KEY, 0L);
  }

  @Test
  void aFailedPeekAnUnstampedHeadOrAnEmptyPeekLeaveItUnmeasured() {
    List<Supplier<List<MailMessage>>> unhelpful =
        List.of(
            () -> {
              throw new IllegalStateException("store down");
            },
            () -> List.of(MailMessage.to(ORDERS).id("foreign").body("{}").build()),
            () ->
                List.of(
                    MailMessage.to(ORDERS)
                        .id("bad")
                        .body("{}")
                        .header(SystemHeaders.SENT_AT, "yesterday")
                        .build()),
            List::of);
    for (Supplier<List<MailMessage>> peek : unhelpful) {
      assertThat(OldestUnread.added(peeking(peek), waiting(2)).extensions()).doesNotContainKey(KEY);
    }
  }

  @Test
  void inOneListingTheFirstFailedPeekEndsThePeeks() {
    java.util.concurrent.atomic.AtomicInteger peeks =
        new java.util.concurrent.atomic.AtomicInteger();
    PeekingTransport failing =
        peeking(
            () -> {
              peeks.incrementAndGet();
              throw new IllegalStateException("store hung past its bound");
            });

    List<AddressStatus> listed =
        OldestUnread.addedToAll(failing, List.of(waiting(1), waiting(2), waiting(0)));

    assertThat(peeks)
        .as("a hung store is asked once per listing, not once per address")
        .hasValue(1);
    assertThat(listed.get(0).extensions()).doesNotContainKey(KEY);
    assertThat(listed.get(1).extensions()).doesNotContainKey(KEY);
    assertThat(listed.get(2).extensions()).as("nothing to peek for").containsEntry(KEY, 0L);
  }

  @Test
  void aTransportThatCannotPeekAnUnknownAddressOrItsOwnMeasureAreLeftAsTheyAre() {
    AddressStatus own =
        new AddressStatus(ORDERS, AddressState.ONLINE, true, 1, 0, null, Map.of(KEY, 42L));
    AddressStatus unknown = AddressStatus.unknown(ORDERS);
    SendOnlyTransport blind =
        new SendOnlyTransport("mem") {
          @Override
          public void send(MailAddress topic, MailMessage copy) {}
        };

    assertThat(OldestUnread.added(blind, waiting(5))).isEqualTo(waiting(5));
    assertThat(OldestUnread.added(peeking(List::of), unknown)).isEqualTo(unknown);
    assertThat(OldestUnread.added(peeking(List::of), own)).isEqualTo(own);
  }

  private static AddressStatus waiting(long unread) {
    return new AddressStatus(ORDERS, AddressState.ONLINE, true, unread, 0, null, Map.of());
  }

  private static MailMessage stamped(Instant sentAt) {
    return MailMessage.to(ORDERS)
        .id("first")
        .body("{}")
        .header(SystemHeaders.SENT_AT, sentAt.toString())
        .build();
  }

  private static PeekingTransport peeking(Supplier<List<MailMessage>> head) {
    return new PeekingTransport(head);
  }

  private static final class PeekingTransport extends SendOnlyTransport implements Peeking {
    private final Supplier<List<MailMessage>> head;

    PeekingTransport(Supplier<List<MailMessage>> head) {
      super("mem");
      this.head = head;
    }

    @Override
    public void send(MailAddress topic, MailMessage copy) {}

    @Override
    public List<MailMessage> peekQueued(MailAddress address, int limit) {
      return head.get();
    }
  }
}
