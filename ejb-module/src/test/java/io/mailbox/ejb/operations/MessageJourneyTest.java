package io.mailbox.ejb.operations;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.ejb.inbox.InboxRow;
import io.mailbox.ejb.inbox.InboxStatus;
import io.mailbox.ejb.outbox.OutboxRow;
import io.mailbox.ejb.outbox.OutboxSearch;
import io.mailbox.ejb.outbox.OutboxStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class MessageJourneyTest {
  private static OutboxRow row(OutboxStatus status, Long settledAt, String error) {
    return new OutboxRow(
        "e-1",
        "orders.placed.v1",
        "jdbc:orders@shop/placed",
        "{}",
        null,
        null,
        null,
        null,
        "0001",
        1_000,
        status,
        2,
        0,
        3,
        0,
        error,
        settledAt);
  }

  @Test
  void aSentRowIsTwoHopsWrittenThenSentAndOffersNothing() {
    List<JourneyHop> hops = MessageJourney.outbox(row(OutboxStatus.SENT, 2_000L, null));

    assertThat(hops).extracting(JourneyHop::state).containsExactly("written", "sent");
    assertThat(hops)
        .extracting(JourneyHop::at)
        .containsExactly(Instant.ofEpochMilli(1_000), Instant.ofEpochMilli(2_000));
    assertThat(hops).allMatch(hop -> hop.actions().isEmpty());
    assertThat(hops.get(0).where()).isEqualTo("orders.placed.v1 → jdbc:orders@shop/placed");
  }

  @Test
  void aFailedRowOffersReleaseAndShowsItsErrorCut() {
    List<JourneyHop> hops =
        MessageJourney.outbox(row(OutboxStatus.FAILED, null, "broker said no " + "x".repeat(300)));

    assertThat(hops).hasSize(1);
    assertThat(hops.get(0).state()).isEqualTo("failed");
    assertThat(hops.get(0).actions()).containsExactly("release-retry", "release-discard");
    assertThat(hops.get(0).detail()).startsWith("attempts 2: broker said no").hasSizeLessThan(220);
  }

  @Test
  void aParkedInboxMarkerOffersRelease() {
    JourneyHop hop =
        MessageJourney.inbox(
            new InboxRow(
                "i-1",
                "billing",
                "orders.placed.v1",
                "e-1",
                InboxStatus.PARKED,
                5,
                3_000,
                "poison",
                null,
                "jdbc://orders@shop/placed"));

    assertThat(hop.where()).isEqualTo("billing ← jdbc://orders@shop/placed");
    assertThat(hop.state()).isEqualTo("parked");
    assertThat(hop.actions()).containsExactly("release-retry", "release-discard");
  }

  @Test
  void hopsAreInTimeOrderNewestLastAndThoseWithoutATimeAfterThem() {
    JourneyHop late =
        new JourneyHop(Instant.ofEpochMilli(9), "inbox", "c", "processed", "", "i", List.of());
    JourneyHop early =
        new JourneyHop(Instant.ofEpochMilli(1), "outbox", "t", "written", "", "e", List.of());
    JourneyHop timeless = new JourneyHop(null, "in-flight", "a", "in flight", "", "k", List.of());

    assertThat(MessageJourney.inTimeOrder(List.of(timeless, late, early)))
        .containsExactly(early, late, timeless);
  }

  @Test
  void aCopyMatchesByIdKeyHeaderOrBodyAndALikePatternTakesWildcardsLiterally() {
    MailMessage message =
        MailMessage.to("jdbc:shipping@shop/orders")
            .id("m-7")
            .body("{\"orderId\":\"o-42\"}")
            .header("tenant", "eu-west")
            .build();

    assertThat(CopySearch.matches(message, "m-7")).isTrue();
    assertThat(CopySearch.matches(message, "o-42")).isTrue();
    assertThat(CopySearch.matches(message, "west")).isTrue();
    assertThat(CopySearch.matches(message, "o-43")).isFalse();
    assertThat(OutboxSearch.containing("50%_off!")).isEqualTo("%50!%!_off!!%");
  }
}
