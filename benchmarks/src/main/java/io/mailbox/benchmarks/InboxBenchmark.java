package io.mailbox.benchmarks;

import io.mailbox.ejb.event.IntegrationEventDefinition;
import io.mailbox.ejb.event.IntegrationEventEnvelope;
import io.mailbox.ejb.inbox.InboxOutcome;
import io.mailbox.ejb.inbox.InboxProcessor;
import io.mailbox.ejb.inbox.InboxRelease;
import io.mailbox.ejb.inbox.InboxRow;
import io.mailbox.ejb.inbox.InboxStatus;
import io.mailbox.ejb.inbox.InboxTransactions;
import io.mailbox.ejb.inbox.JpaInboxQueries;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.Persistence;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The consumer inbox's cost on PostgreSQL (issue 21, item 4): the same handler (one business row
 * written through the transaction's entity manager) in a plain transaction per message, and through
 * the inbox: one transaction that looks for the marker, inserts it and holds the handler's row
 * (what {@code JtaInboxTransactions} does in the server, here with resource-local transactions).
 * Rounds alternate the order; prints the rates, the medians, the ratio (target at most 1.3), and
 * the rate of dropping a redelivered message. Arguments: {@code [messages] [rounds]} (default 2000,
 * 5).
 */
public final class InboxBenchmark {
  private static final String SERVER = "jdbc:postgresql://127.0.0.1:5432/";
  private static final String DATABASE = "mailbox_bench_inbox";
  private static final IntegrationEventDefinition<JsonObject> PAID =
      IntegrationEventDefinition.define(
          "billing.paid", 1, "billing.paid.v1", data -> data.asJsonObject());
  private static final String INSERT_LEDGER =
      "INSERT INTO BENCH_LEDGER (ID, ORDER_ID, AMOUNT, CREATED_AT) VALUES (?, ?, ?, ?)";

  private static final Phases PLAIN_PHASES = new Phases();

  private InboxBenchmark() {}

  /** The steps of one first delivery's transaction, timed on the wall clock. */
  private enum Phase {
    LOOK("look for the marker"),
    MARKER("insert the marker"),
    WRITE("the handler's row"),
    COMMIT("commit");

    final String label;

    Phase(String label) {
      this.label = label;
    }
  }

  /** Time per phase over every message timed (warm-up included), printed as a mean per message. */
  private static final class Phases {
    private final long[] nanos = new long[Phase.values().length];
    private long messages;

    void add(Phase phase, long elapsed) {
      nanos[phase.ordinal()] += elapsed;
    }

    void counted() {
      messages++;
    }

    @Override
    public String toString() {
      StringBuilder text = new StringBuilder();
      long total = 0;
      for (Phase phase : Phase.values()) {
        long spent = nanos[phase.ordinal()];
        total += spent;
        if (spent > 0) {
          text.append(String.format("%s %.0f, ", phase.label, spent / 1e3 / messages));
        }
      }
      return text.append(String.format("in all %.0f", total / 1e3 / Math.max(1, messages)))
          .toString();
    }
  }

  public static void main(String[] args) throws Exception {
    int messages = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    freshDatabase();
    EntityManagerFactory database =
        Persistence.createEntityManagerFactory(
            "mailbox-inbox-bench",
            Map.of(
                "jakarta.persistence.jdbc.url", SERVER + DATABASE,
                "jakarta.persistence.jdbc.user", "postgres",
                "jakarta.persistence.jdbc.password", ""));
    try {
      BenchTransactions transactions = new BenchTransactions(database, true);
      InboxProcessor inbox = new InboxProcessor(transactions, Clock.systemUTC(), 3);
      BenchTransactions blind = new BenchTransactions(database, false);
      InboxProcessor markerOnly = new InboxProcessor(blind, Clock.systemUTC(), 3);
      System.out.printf(
          "inbox on %s%s: %,d messages per round, one handler row each%n",
          SERVER, DATABASE, messages);
      plain(database, envelopes(messages / 4));
      throughInbox(inbox, transactions, envelopes(messages / 4));
      throughInbox(markerOnly, blind, envelopes(messages / 4));
      double[] plainRates = new double[rounds];
      double[] inboxRates = new double[rounds];
      double[] duplicateRates = new double[rounds];
      double[] floorRates = new double[rounds];
      for (int round = 0; round < rounds; round++) {
        List<String> forPlain = envelopes(messages);
        List<String> forInbox = envelopes(messages);
        if (round % 2 == 0) {
          plainRates[round] = plain(database, forPlain);
          inboxRates[round] = throughInbox(inbox, transactions, forInbox);
        } else {
          inboxRates[round] = throughInbox(inbox, transactions, forInbox);
          plainRates[round] = plain(database, forPlain);
        }
        duplicateRates[round] = throughInbox(inbox, transactions, forInbox);
        floorRates[round] = throughInbox(markerOnly, blind, envelopes(messages));
        System.out.printf(
            "round %d: plain transaction %,.0f/s   through the inbox %,.0f/s   redelivered"
                + " (dropped) %,.0f/s   marker written blind %,.0f/s%n",
            round + 1,
            plainRates[round],
            inboxRates[round],
            duplicateRates[round],
            floorRates[round]);
      }
      double plainMedian = OutboxBench.median(plainRates);
      double inboxMedian = OutboxBench.median(inboxRates);
      System.out.printf(
          "median: plain transaction %,.0f/s   through the inbox %,.0f/s   redelivered %,.0f/s%n",
          plainMedian, inboxMedian, OutboxBench.median(duplicateRates));
      System.out.printf(
          "ratio inbox / plain (time per message) = %.2f (target <= 1.3)%n",
          plainMedian / inboxMedian);
      System.out.printf(
          "ratio marker written blind / plain = %.2f (the floor of a marker row per message)%n",
          plainMedian / OutboxBench.median(floorRates));
      System.out.println(
          "where a first delivery's time goes (mean µs per message, every round, wall clock):");
      System.out.println("  plain transaction:    " + PLAIN_PHASES);
      System.out.println("  through the inbox:    " + transactions.phases());
      System.out.println("  marker written blind: " + blind.phases());
    } finally {
      database.close();
    }
  }

  private static void freshDatabase() throws Exception {
    try (Connection c = DriverManager.getConnection(SERVER + "postgres", "postgres", "");
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + DATABASE);
      s.execute("CREATE DATABASE " + DATABASE);
    }
    try (Connection c = DriverManager.getConnection(SERVER + DATABASE, "postgres", "");
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE BENCH_LEDGER (ID VARCHAR(64) PRIMARY KEY, ORDER_ID VARCHAR(64) NOT NULL,"
              + " AMOUNT INTEGER NOT NULL, CREATED_AT BIGINT NOT NULL)");
      // The shipped DDL, statement by statement (comments dropped).
      String ddl = Files.readString(Path.of("server-config/sql/postgresql/inbox.sql"));
      for (String statement : ddl.replaceAll("(?m)^--.*$", "").split(";")) {
        if (!statement.isBlank()) {
          s.execute(statement);
        }
      }
    }
  }

  private static List<String> envelopes(int count) {
    List<String> all = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      JsonObject paid =
          Json.createObjectBuilder().add("orderId", "o-" + i).add("amount", 10 + i % 90).build();
      all.add(
          IntegrationEventEnvelope.of(PAID, paid)
              .id(UUID.randomUUID().toString())
              .build()
              .toJson());
    }
    return all;
  }

  /** The handler's write: one ledger row on the transaction's entity manager. */
  private static void writeLedger(EntityManager em, JsonObject paid) {
    em.createNativeQuery(INSERT_LEDGER)
        .setParameter(1, UUID.randomUUID().toString())
        .setParameter(2, paid.getString("orderId"))
        .setParameter(3, paid.getInt("amount"))
        .setParameter(4, System.currentTimeMillis())
        .executeUpdate();
  }

  /** Each message: parse, one transaction with the handler's row. Per second. */
  private static double plain(EntityManagerFactory database, List<String> envelopes) {
    long began = System.nanoTime();
    for (String json : envelopes) {
      JsonObject paid = PAID.accept(IntegrationEventEnvelope.parse(json));
      long start = System.nanoTime();
      long written =
          OutboxBench.inTransaction(
              database,
              em -> {
                writeLedger(em, paid);
                return System.nanoTime();
              });
      PLAIN_PHASES.add(Phase.WRITE, written - start);
      PLAIN_PHASES.add(Phase.COMMIT, System.nanoTime() - written);
      PLAIN_PHASES.counted();
    }
    return envelopes.size() / ((System.nanoTime() - began) / 1e9);
  }

  /** Each message through the inbox with the same handler. Per second. */
  private static double throughInbox(
      InboxProcessor inbox, BenchTransactions transactions, List<String> envelopes) {
    long began = System.nanoTime();
    for (String json : envelopes) {
      InboxOutcome outcome =
          inbox.process(
              "ledger", PAID, json, (paid, envelope) -> writeLedger(transactions.current(), paid));
      if (outcome == null) {
        throw new IllegalStateException("no outcome");
      }
    }
    return envelopes.size() / ((System.nanoTime() - began) / 1e9);
  }

  /**
   * {@link InboxTransactions} with resource-local transactions, each method its own transaction as
   * the server's {@code REQUIRES_NEW}; the handler writes on the marker's entity manager, as a
   * container-managed one joins the JTA transaction in the server.
   */
  private static final class BenchTransactions implements InboxTransactions {
    private final EntityManagerFactory database;
    private final boolean lookFirst;
    private final Phases phases = new Phases();
    private EntityManager current;

    /**
     * @param lookFirst as shipped: look for the marker, then insert it; false: insert it blind (the
     *     floor of any inbox that writes a marker row, not a safe inbox: a redelivery would fail)
     */
    BenchTransactions(EntityManagerFactory database, boolean lookFirst) {
      this.database = database;
      this.lookFirst = lookFirst;
    }

    EntityManager current() {
      return current;
    }

    Phases phases() {
      return phases;
    }

    @Override
    public Optional<InboxRow> find(String id) {
      return OutboxBench.inTransaction(database, em -> new JpaInboxQueries(em).find(id));
    }

    @Override
    public boolean runWithMarker(InboxRow marker, Work work) throws Exception {
      EntityManager em = database.createEntityManager();
      EntityTransaction tx = em.getTransaction();
      current = em;
      try {
        long start = System.nanoTime();
        tx.begin();
        JpaInboxQueries queries = new JpaInboxQueries(em);
        if (lookFirst && queries.find(marker.id()).isPresent()) {
          return false;
        }
        long looked = System.nanoTime();
        queries.insert(marker);
        long marked = System.nanoTime();
        work.run();
        em.flush();
        long written = System.nanoTime();
        tx.commit();
        phases.add(Phase.LOOK, looked - start);
        phases.add(Phase.MARKER, marked - looked);
        phases.add(Phase.WRITE, written - marked);
        phases.add(Phase.COMMIT, System.nanoTime() - written);
        phases.counted();
        return true;
      } finally {
        current = null;
        if (tx.isActive()) {
          tx.rollback();
        }
        em.close();
      }
    }

    @Override
    public int recordFailure(InboxRow counter, String error) {
      return OutboxBench.inTransaction(
          database,
          em -> new JpaInboxQueries(em).recordFailure(counter, error, System.currentTimeMillis()));
    }

    @Override
    public boolean park(InboxRow parked) {
      return OutboxBench.inTransaction(database, em -> new JpaInboxQueries(em).park(parked));
    }

    @Override
    public List<InboxRow> parked(int limit) {
      return OutboxBench.inTransaction(database, em -> new JpaInboxQueries(em).parked(limit));
    }

    @Override
    public InboxRelease release(String id, boolean retry, long now) {
      return OutboxBench.inTransaction(
          database, em -> new JpaInboxQueries(em).release(id, retry, now));
    }

    @Override
    public int purge(long before, int limit) {
      return OutboxBench.inTransaction(
          database, em -> new JpaInboxQueries(em).purge(before, limit));
    }

    @Override
    public long count(InboxStatus status) {
      return OutboxBench.inTransaction(database, em -> new JpaInboxQueries(em).count(status));
    }
  }
}
