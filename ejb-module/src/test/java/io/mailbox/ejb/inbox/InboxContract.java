package io.mailbox.ejb.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.ejb.event.IntegrationEventDefinition;
import io.mailbox.ejb.event.IntegrationEventEnvelope;
import io.mailbox.ejb.testsupport.TestDatabase;
import jakarta.json.Json;
import jakarta.json.JsonString;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The inbox on a real database: duplicates, races, failure counting, parking, release, purge. */
public abstract class InboxContract {
  private static final IntegrationEventDefinition<String> HIRED =
      IntegrationEventDefinition.define(
          "people.hired", 1, "people.hired.v1", data -> ((JsonString) data).getString());

  private TestDatabase database;
  private LocalInboxTransactions transactions;

  protected abstract TestDatabase openDatabase();

  @BeforeEach
  void freshTables() {
    database = openDatabase();
    transactions = new LocalInboxTransactions(database);
  }

  @AfterEach
  void close() {
    database.close();
  }

  private static String envelope(String id) {
    return IntegrationEventEnvelope.of(HIRED, Json.createValue("person-" + id))
        .id(id)
        .build()
        .toJson();
  }

  /** The handler's business write: one effect row per application, in the inbox transaction. */
  private static void applyEffect(String data, IntegrationEventEnvelope envelope) {
    LocalInboxTransactions.current()
        .createNativeQuery("INSERT INTO TEST_EFFECT (ID, EVENT_ID) VALUES (?, ?)")
        .setParameter(1, UUID.randomUUID().toString())
        .setParameter(2, envelope.id())
        .executeUpdate();
  }

  private long effects(String eventId) {
    return database.inTransaction(
        em ->
            ((Number)
                    em.createNativeQuery("SELECT COUNT(*) FROM TEST_EFFECT WHERE EVENT_ID = ?")
                        .setParameter(1, eventId)
                        .getSingleResult())
                .longValue());
  }

  @Test
  void aRedeliveredEventIsAcknowledgedWithoutRunningTheHandlerAgain() {
    InboxProcessor inbox = new InboxProcessor(transactions, Clock.systemUTC(), 3);
    String event = envelope("e-1");

    assertThat(inbox.process("payroll", HIRED, event, InboxContract::applyEffect))
        .isEqualTo(InboxOutcome.PROCESSED);
    assertThat(inbox.process("payroll", HIRED, event, InboxContract::applyEffect))
        .isEqualTo(InboxOutcome.DUPLICATE);

    assertThat(effects("e-1")).isEqualTo(1);
  }

  @Test
  void anotherConsumerNameProcessesTheSameEventOnItsOwn() {
    InboxProcessor inbox = new InboxProcessor(transactions, Clock.systemUTC(), 3);
    String event = envelope("e-2");

    inbox.process("payroll", HIRED, event, InboxContract::applyEffect);

    assertThat(inbox.process("badges", HIRED, event, InboxContract::applyEffect))
        .isEqualTo(InboxOutcome.PROCESSED);
    assertThat(effects("e-2")).isEqualTo(2);
  }

  @Test
  void concurrentDuplicateDeliveriesApplyTheEffectExactlyOnce() throws Exception {
    InboxProcessor inbox = new InboxProcessor(transactions, Clock.systemUTC(), 3);
    int events = 30;
    int copies = 6;
    Map<InboxOutcome, AtomicInteger> outcomes = new ConcurrentHashMap<>();
    ExecutorService deliveries = Executors.newFixedThreadPool(copies);
    List<Future<?>> running = new ArrayList<>();
    for (int e = 0; e < events; e++) {
      String event = envelope("race-" + e);
      CountDownLatch go = new CountDownLatch(1);
      for (int c = 0; c < copies; c++) {
        running.add(
            deliveries.submit(
                () -> {
                  go.await();
                  InboxOutcome outcome =
                      inbox.process(
                          "payroll",
                          HIRED,
                          event,
                          (data, envelope) -> {
                            applyEffect(data, envelope);
                            Thread.sleep(5); // widen the race window
                          });
                  outcomes.computeIfAbsent(outcome, o -> new AtomicInteger()).incrementAndGet();
                  return null;
                }));
      }
      go.countDown();
    }
    for (Future<?> delivery : running) {
      delivery.get(60, TimeUnit.SECONDS);
    }
    deliveries.shutdown();

    for (int e = 0; e < events; e++) {
      assertThat(effects("race-" + e)).as("effect of race-" + e).isEqualTo(1);
    }
    assertThat(outcomes.get(InboxOutcome.PROCESSED).get()).isEqualTo(events);
    assertThat(outcomes.get(InboxOutcome.DUPLICATE).get()).isEqualTo(events * (copies - 1));
    assertThat(transactions.count(InboxStatus.PROCESSED)).isEqualTo(events);
  }

  @Test
  void anOperatorFindsMarkersByEnvelopeIdAndParkedOnesByTextInTheirKeptEnvelope() {
    InboxProcessor inbox = new InboxProcessor(transactions, Clock.systemUTC(), 1);
    inbox.process("payroll", HIRED, envelope("found-1"), InboxContract::applyEffect);
    InboxHandler<String> refusing =
        (data, envelope) -> {
          throw new IllegalStateException("refused");
        };
    assertThat(inbox.process("payroll", HIRED, envelope("parked-50%_off"), refusing))
        .as("one attempt allowed: parked at once")
        .isEqualTo(InboxOutcome.PARKED);

    List<InboxRow> byId =
        database.inTransaction(em -> InboxSearch.find(em, "found-1", false, 20, 5_000));
    assertThat(byId)
        .singleElement()
        .satisfies(row -> assertThat(row.status()).isEqualTo(InboxStatus.PROCESSED));
    List<InboxRow> byText =
        database.inTransaction(
            em -> InboxSearch.find(em, "person-parked-50%_off", true, 20, 5_000));
    assertThat(byText)
        .as("a parked marker keeps its envelope; % and _ match themselves")
        .singleElement()
        .satisfies(row -> assertThat(row.status()).isEqualTo(InboxStatus.PARKED));
    List<InboxRow> idOnly =
        database.inTransaction(em -> InboxSearch.find(em, "person-parked", false, 20, 5_000));
    assertThat(idOnly).as("not looked for inside envelopes").isEmpty();
    List<InboxRow> wildcard =
        database.inTransaction(em -> InboxSearch.find(em, "50_%", true, 20, 5_000));
    assertThat(wildcard).isEmpty();
  }

  @Test
  void aFailingHandlerLeavesNoMarkerIsCountedAndParksAtMaxAttempts() {
    InboxProcessor inbox = new InboxProcessor(transactions, Clock.systemUTC(), 3);
    String event = envelope("poison");
    InboxHandler<String> failing =
        (data, envelope) -> {
          applyEffect(data, envelope);
          throw new IllegalStateException("downstream refused");
        };

    assertThatThrownBy(() -> inbox.process("payroll", HIRED, event, failing))
        .isInstanceOf(InboxFailureException.class)
        .hasMessageStartingWith("MBX-3003");
    assertThatThrownBy(() -> inbox.process("payroll", HIRED, event, failing))
        .isInstanceOf(InboxFailureException.class);
    assertThat(inbox.process("payroll", HIRED, event, failing)).isEqualTo(InboxOutcome.PARKED);

    assertThat(effects("poison")).as("every failed attempt rolled its write back").isZero();
    assertThat(inbox.process("payroll", HIRED, event, failing))
        .as("parked: skipped")
        .isEqualTo(InboxOutcome.DUPLICATE);
    List<InboxRow> parked = transactions.parked(10);
    assertThat(parked)
        .singleElement()
        .satisfies(
            row -> {
              assertThat(row.attempts()).isEqualTo(3);
              assertThat(row.lastError()).contains("downstream refused");
              assertThat(row.envelope()).as("parked() never returns envelopes").isNull();
            });
  }

  @Test
  void aParseRejectionParksAtOnce() {
    InboxProcessor inbox = new InboxProcessor(transactions, Clock.systemUTC(), 5);
    String wrongVersion =
        IntegrationEventEnvelope.of(
                IntegrationEventDefinition.define("people.hired", 2, "people.hired.v2", d -> d),
                Json.createValue("x"))
            .id("v2")
            .build()
            .toJson();

    assertThat(inbox.process("payroll", HIRED, wrongVersion, InboxContract::applyEffect))
        .isEqualTo(InboxOutcome.PARKED);
  }

  @Test
  void releaseRetryHandsBackTheEnvelopeAndItsSourceAndDiscardKeepsItSkipped() {
    InboxProcessor inbox = new InboxProcessor(transactions, Clock.systemUTC(), 1);
    InboxHandler<String> failing =
        (data, envelope) -> {
          throw new IllegalStateException("no");
        };
    String r1 = envelope("r-1");
    String r2 = envelope("r-2");
    inbox.process("payroll", HIRED, r1, "jdbc:people@hr/hired", failing);
    inbox.process("payroll", HIRED, r2, failing);
    String first = InboxProcessor.markerId("payroll", HIRED.topic(), "r-1");
    String second = InboxProcessor.markerId("payroll", HIRED.topic(), "r-2");

    InboxRelease retried = transactions.release(first, true, System.currentTimeMillis());
    assertThat(retried.result()).isEqualTo(InboxRelease.Result.RETRY);
    assertThat(retried.row().envelope()).isEqualTo(r1);
    assertThat(retried.row().sourceAddress()).isEqualTo("jdbc://people@hr/hired");
    assertThat(inbox.process("payroll", HIRED, r1, InboxContract::applyEffect))
        .as("after retry the re-posted event is processed")
        .isEqualTo(InboxOutcome.PROCESSED);

    assertThat(transactions.release(second, true, System.currentTimeMillis()).result())
        .as("no source recorded: refused, nothing changed")
        .isEqualTo(InboxRelease.Result.NO_SOURCE_ADDRESS);
    assertThat(transactions.count(InboxStatus.PARKED)).isEqualTo(1);
    assertThat(transactions.release(second, false, System.currentTimeMillis()).result())
        .isEqualTo(InboxRelease.Result.DISCARDED);
    assertThat(inbox.process("payroll", HIRED, r2, InboxContract::applyEffect))
        .isEqualTo(InboxOutcome.DUPLICATE);
    assertThat(transactions.count(InboxStatus.DISCARDED)).isEqualTo(1);
  }

  @Test
  void anEnvelopeIdLongerThanTheColumnIsParkedAndItsRedeliveriesSkipped() {
    InboxProcessor inbox = new InboxProcessor(transactions, Clock.systemUTC(), 3);
    String id = "x".repeat(300);

    assertThat(inbox.process("payroll", HIRED, envelope(id), InboxContract::applyEffect))
        .isEqualTo(InboxOutcome.PARKED);
    assertThat(inbox.process("payroll", HIRED, envelope(id), InboxContract::applyEffect))
        .isEqualTo(InboxOutcome.DUPLICATE);
    assertThat(transactions.parked(10))
        .singleElement()
        .satisfies(row -> assertThat(row.lastError()).startsWith("MBX-3004"));
    assertThat(effects(id)).isZero();
  }

  @Test
  void purgeRemovesRowsOfEveryStatusOlderThanTheWindow() {
    InboxProcessor inbox = new InboxProcessor(transactions, Clock.systemUTC(), 1);
    inbox.process("payroll", HIRED, envelope("p-1"), InboxContract::applyEffect);
    inbox.process(
        "payroll",
        HIRED,
        envelope("p-2"),
        (d, e) -> {
          throw new IllegalStateException("no");
        });

    assertThat(transactions.purge(System.currentTimeMillis() + 1, 100)).isEqualTo(3);
    assertThat(transactions.count(InboxStatus.PARKED)).isZero();
    assertThat(inbox.process("payroll", HIRED, envelope("p-1"), InboxContract::applyEffect))
        .as("a delivery after the marker was purged is processed again")
        .isEqualTo(InboxOutcome.PROCESSED);
  }
}
