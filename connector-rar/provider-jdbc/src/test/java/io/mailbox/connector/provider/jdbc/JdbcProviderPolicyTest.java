package io.mailbox.connector.provider.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.kernel.DeadLetterPolicy;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.testsupport.ManualClock;
import io.mailbox.connector.testsupport.ManualScheduler;
import java.time.Duration;
import java.time.Instant;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/** The jdbc: queue's delivery cap and time to live, on embedded H2 with time moved by hand. */
class JdbcProviderPolicyTest {
  private static final MailAddress WORK = MailAddress.parse("jdbc:billing@shop/work");
  private static final MailAddress WORK_DLQ = MailAddress.parse("jdbc:billing@shop/work_dlq");

  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));

  private final ManualScheduler scheduler = new ManualScheduler(clock);

  private JdbcDataSource h2;

  private MailboxProvider provider(int maxDeliveries, Duration ttl) {
    return provider(maxDeliveries, ttl, null);
  }

  /** With a dedupe window when {@code dedupeWindow} is not null. */
  private MailboxProvider provider(int maxDeliveries, Duration ttl, Duration dedupeWindow) {
    h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:policy-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1;MODE=LEGACY");
    h2.setUser("sa");
    JdbcProvider transport = new JdbcProvider(h2, clock, scheduler, true, maxDeliveries, ttl);
    if (dedupeWindow != null) {
      transport.withDedupeWindow(dedupeWindow);
    }
    MailboxProvider provider = MailboxProvider.of(transport);
    provider.enableDeadLetterQueue(DeadLetterPolicy.defaults());
    provider.start();
    return provider;
  }

  @Test
  void aCopyIsDeliveredUpToMaxDeliveriesThenDeadLettered() {
    MailboxProvider provider = provider(2, Duration.ZERO);
    provider.post(MailMessage.to(WORK).id("flaky").body("{}").build());

    for (int delivery = 1; delivery <= 2; delivery++) {
      Delivery leased = provider.fetch(WORK, FetchOptions.leased()).get(0);
      assertThat(leased.message().header(SystemHeaders.ROUND)).contains(Integer.toString(delivery));
      leased.settle(Disposition.UNHANDLED);
    }

    assertThat(provider.fetch(WORK, FetchOptions.leased()))
        .as("the third would exceed the cap")
        .isEmpty();
    assertThat(provider.status(WORK).unreadCount()).isZero();
    MailMessage record = provider.fetch(WORK_DLQ, FetchOptions.autoAck()).get(0).message();
    assertThat(record.id()).isEqualTo("flaky");
    assertThat(record.headers())
        .containsEntry(SystemHeaders.DEAD_LETTER_REASON, "max-deliveries")
        .containsEntry(SystemHeaders.DEAD_LETTER_ATTEMPTS, "2");
  }

  @Test
  void aCopyOlderThanItsTimeToLiveIsDeadLetteredInsteadOfHandedOut() {
    MailboxProvider provider = provider(0, Duration.ofMinutes(10));
    provider.post(MailMessage.to(WORK).id("stale").body("{}").build());
    provider.post(MailMessage.to(WORK).id("fresh-later").body("{}").build());
    clock.advance(Duration.ofMinutes(11));
    provider.post(MailMessage.to(WORK).id("fresh").body("{}").build());

    assertThat(provider.fetch(WORK, FetchOptions.autoAck().limit(5)))
        .extracting(d -> d.message().id())
        .containsExactly("fresh");
    assertThat(provider.fetch(WORK_DLQ, FetchOptions.autoAck().limit(5)))
        .extracting(d -> d.message().header(SystemHeaders.DEAD_LETTER_REASON).orElse(""))
        .containsExactly("ttl", "ttl");
  }

  @Test
  void withoutACapARetriedCopyKeepsComingBack() {
    MailboxProvider provider = provider(0, Duration.ZERO);
    provider.post(MailMessage.to(WORK).id("patient").body("{}").build());

    for (int delivery = 0; delivery < 7; delivery++) {
      provider.fetch(WORK, FetchOptions.leased()).get(0).settle(Disposition.UNHANDLED);
    }

    assertThat(provider.status(WORK).unreadCount()).isEqualTo(1);
  }

  @Test
  void aRepostedIdInsideTheDedupeWindowIsCollapsedAndOutsideItIsNew() {
    MailboxProvider provider = provider(0, Duration.ZERO, Duration.ofMinutes(1));
    provider.post(MailMessage.to(WORK).id("order-42").body("{}").build());
    provider.post(MailMessage.to(WORK).id("order-42").body("{\"again\":true}").build());
    provider.post(
        MailMessage.to(MailAddress.parse("jdbc:other@shop/work"))
            .id("order-42")
            .body("{}")
            .build());

    assertThat(provider.status(WORK).unreadCount()).as("collapsed").isEqualTo(1);
    assertThat(provider.status(WORK).extensions()).containsEntry("jdbc.collapsedDuplicates", 1L);
    assertThat(provider.status(MailAddress.parse("jdbc:other@shop/work")).unreadCount())
        .as("another address keeps its own window")
        .isEqualTo(1);

    clock.advance(Duration.ofSeconds(61));
    provider.post(MailMessage.to(WORK).id("order-42").body("{}").build());
    assertThat(provider.status(WORK).unreadCount())
        .as("outside the window: a new message")
        .isEqualTo(2);
  }

  @Test
  void aDeduplicationIdIsWhatTheWindowComparesWhenAPostCarriesOne() {
    MailboxProvider provider = provider(0, Duration.ZERO, Duration.ofMinutes(1));
    provider.post(
        MailMessage.to(WORK).id("send-1").deduplicationId("order-42-v1").body("{}").build());
    provider.post(
        MailMessage.to(WORK).id("send-2").deduplicationId("order-42-v1").body("{}").build());
    provider.post(
        MailMessage.to(WORK).id("send-1").deduplicationId("order-42-v2").body("{}").build());

    assertThat(provider.status(WORK).unreadCount())
        .as("the same de-duplication id collapses; another one is new, whatever the message ids")
        .isEqualTo(2);
  }

  @Test
  void expiredSightingsAreDeletedSoTheDedupeTableDoesNotGrowWithoutBound() throws Exception {
    MailboxProvider provider = provider(0, Duration.ZERO, Duration.ofSeconds(10));
    for (int i = 0; i < 50; i++) {
      provider.post(MailMessage.to(WORK).id("seen-" + i).body("{}").build());
    }
    assertThat(sightings()).isEqualTo(50);

    scheduler.advance(Duration.ofSeconds(5));
    provider.post(MailMessage.to(WORK).id("late").body("{}").build());
    assertThat(sightings()).as("nothing expired yet").isEqualTo(51);

    scheduler.advance(Duration.ofSeconds(6)); // the first fifty are past their window
    assertThat(sightings()).as("only the live sighting is left").isEqualTo(1);
    provider.post(MailMessage.to(WORK).id("late").body("{}").build());
    assertThat(provider.status(WORK).unreadCount())
        .as("the live sighting still collapses its repeat")
        .isEqualTo(51);
  }

  @Test
  void aWindowSetBeforeTheStartIsSweptToo() throws Exception {
    h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:policy-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1;MODE=LEGACY");
    h2.setUser("sa");
    MailboxProvider provider =
        MailboxProvider.of(
            new JdbcProvider(h2, clock, scheduler, true, 0, Duration.ZERO)
                .withDedupeWindow(Duration.ofSeconds(2)));
    provider.start();
    provider.post(MailMessage.to(WORK).id("early").body("{}").build());
    assertThat(sightings()).isEqualTo(1);

    scheduler.advance(Duration.ofSeconds(5));
    assertThat(sightings()).isZero();
  }

  private int sightings() throws Exception {
    try (var c = h2.getConnection();
        var s = c.createStatement();
        var rs = s.executeQuery("SELECT COUNT(*) FROM MBX_QUEUE_SEEN")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  @Test
  void aRequeuedCopyIsNeverMistakenForADuplicate() {
    MailboxProvider provider = provider(0, Duration.ZERO, Duration.ofMinutes(1));
    provider.post(MailMessage.to(WORK).id("once").body("{}").build());

    provider.fetch(WORK, FetchOptions.leased()).get(0).settle(Disposition.UNHANDLED);

    assertThat(provider.status(WORK).unreadCount()).isEqualTo(1);
  }

  @Test
  void aDiscardWhoseDeadLetterRecordCannotBeStoredLeavesTheCopyWhereItWas() throws Exception {
    MailboxProvider provider = provider(0, Duration.ZERO);
    provider.post(MailMessage.to(WORK).id("doomed").body("{}").build());
    Delivery leased = provider.fetch(WORK, FetchOptions.leased()).get(0);
    refuseDeadLetterRows(true);

    assertThatThrownBy(() -> leased.settle(Disposition.DISCARD))
        .isInstanceOf(io.mailbox.connector.api.MailboxException.class);
    assertThat(provider.status(WORK).inFlightCount())
        .as("the delete rolled back with the failed dead-letter insert")
        .isEqualTo(1);

    refuseDeadLetterRows(false);
    clock.advance(Duration.ofMinutes(1)); // the lease ends: the copy is back
    Delivery again = provider.fetch(WORK, FetchOptions.leased()).get(0);
    assertThat(again.message().id()).isEqualTo("doomed");
    again.settle(Disposition.DISCARD);
    assertThat(provider.status(WORK).inFlightCount()).isZero();
    assertThat(provider.fetch(WORK_DLQ, FetchOptions.autoAck()))
        .extracting(d -> d.message().id())
        .containsExactly("doomed");
  }

  @Test
  void aSpentCopyStaysQueuedUntilItsDeadLetterRecordCanBeStored() throws Exception {
    MailboxProvider provider = provider(1, Duration.ZERO);
    provider.post(MailMessage.to(WORK).id("spent").body("{}").build());
    provider.fetch(WORK, FetchOptions.leased()).get(0).settle(Disposition.UNHANDLED);
    refuseDeadLetterRows(true);

    assertThatThrownBy(() -> provider.fetch(WORK, FetchOptions.leased()))
        .isInstanceOf(io.mailbox.connector.api.MailboxException.class);
    assertThat(provider.status(WORK).unreadCount()).isEqualTo(1);

    refuseDeadLetterRows(false);
    assertThat(provider.fetch(WORK, FetchOptions.leased())).isEmpty();
    assertThat(provider.status(WORK).unreadCount()).isZero();
    assertThat(provider.fetch(WORK_DLQ, FetchOptions.autoAck()))
        .extracting(d -> d.message().header(SystemHeaders.DEAD_LETTER_REASON).orElse(""))
        .containsExactly("max-deliveries");
  }

  /** A constraint that makes the database refuse rows for the dead-letter address. */
  private void refuseDeadLetterRows(boolean refuse) throws Exception {
    try (var connection = h2.getConnection();
        var statement = connection.createStatement()) {
      statement.execute(
          refuse
              ? "ALTER TABLE MBX_QUEUE ADD CONSTRAINT NO_DEAD_LETTERS CHECK (ADDRESS NOT LIKE '%_dlq')"
              : "ALTER TABLE MBX_QUEUE DROP CONSTRAINT NO_DEAD_LETTERS");
    }
  }
}
