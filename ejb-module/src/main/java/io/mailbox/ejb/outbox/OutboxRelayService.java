package io.mailbox.ejb.outbox;

import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.ejb.inbox.JtaInboxTransactions;
import io.mailbox.ejb.metrics.OutboxMetrics;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Runs this application's relay on the server's managed scheduler (and a managed thread of its own
 * for finishing batches: {@link OutboxRelay}): a sweep every interval, another right after a
 * transaction that wrote rows commits ({@link #dispatch()}), and the retention purge once a minute.
 * Sweeps never overlap within one instance; any number of instances may relay the same table. On
 * shutdown it stops scheduling and waits for the sweep in progress.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class OutboxRelayService {
  private static final Logger LOG = Logger.getLogger(OutboxRelayService.class.getName());

  @Resource private ManagedScheduledExecutorService scheduler;

  // The relay's second thread: it publishes and marks sent one batch while the sweep claims the
  // next. A thread of its own rather than the scheduler's pool, which runs the sweep that waits
  // for it (a pool of one would never run it).
  @Resource private ManagedThreadFactory threads;

  // The persistence unit's datasource (persistence.xml), asked once for its isolation.
  @Resource(lookup = "java:comp/DefaultDataSource")
  private DataSource dataSource;

  @Inject private MailboxConnectionFactory connections;

  @EJB private TransactionalOutboxStore store;

  // Instance: MicroProfile Metrics is optional (WildFly 37 has none; the relay then counts
  // nothing).
  @Inject private Instance<OutboxMetrics> metrics;

  @EJB private JtaInboxTransactions inbox;

  private final OutboxConfig config = new OutboxConfig();
  private final AtomicBoolean sweeping = new AtomicBoolean();
  private final AtomicBoolean dispatchRequested = new AtomicBoolean();
  private final AtomicReference<SweepResult> lastSweep = new AtomicReference<>();
  private volatile long lastOverlapAt;
  private volatile long lastStoreFailureAt;
  private volatile boolean running;
  private volatile boolean isolationLocksInserts;
  private OutboxRelay relay;
  private ExecutorService finishing;
  private ScheduledFuture<?> sweeps;
  private ScheduledFuture<?> purges;

  @PostConstruct
  void start() {
    finishing = Executors.newSingleThreadExecutor(threads);
    relay =
        new OutboxRelay(
            store,
            new MailboxOutboxPublisher(connections),
            config.relaySettings(),
            Clock.systemUTC(),
            "relay-" + UUID.randomUUID().toString().substring(0, 8),
            metrics.isResolvable() ? metrics.get() : RelayListener.NONE,
            finishing);
    if (!config.relayEnabled()) {
      LOG.info("Outbox relay disabled (" + OutboxConfig.RELAY_ENABLED + "=false)");
      return;
    }
    checkIsolation();
    running = true;
    long interval = config.relayInterval().toMillis();
    sweeps =
        scheduler.scheduleWithFixedDelay(
            this::sweepQuietly, interval, interval, TimeUnit.MILLISECONDS);
    purges = scheduler.scheduleWithFixedDelay(this::purgeQuietly, 60, 60, TimeUnit.SECONDS);
  }

  /** Asks for a sweep now (after a commit that wrote rows); coalesces with one already queued. */
  public void dispatch() {
    if (running && dispatchRequested.compareAndSet(false, true)) {
      scheduler.execute(
          () -> {
            dispatchRequested.set(false);
            sweepQuietly();
          });
    }
  }

  /** Runs one sweep on the calling thread unless one is in progress; returns it (or null). */
  public SweepResult sweepNow() {
    if (!sweeping.compareAndSet(false, true)) {
      return null;
    }
    try {
      SweepResult result = relay.sweep();
      lastSweep.set(result);
      if (result.overlaps() > 0) {
        lastOverlapAt = System.currentTimeMillis();
      }
      return result;
    } catch (RuntimeException e) {
      lastStoreFailureAt = System.currentTimeMillis();
      throw e;
    } finally {
      sweeping.set(false);
    }
  }

  /**
   * What an operator should look at about this instance's relay, as health reasons: {@code
   * store-write-failing} (a sweep could not read or write the table within {@code windowMillis}),
   * {@code relay-overlap} (a sweep met another relay on a row within it) and {@link
   * StoreIsolation#CONCERN} (the database's isolation lets the relay block the application's
   * inserts).
   */
  public List<String> concerns(long windowMillis) {
    long now = System.currentTimeMillis();
    List<String> concerns = new ArrayList<>();
    if (lastStoreFailureAt > 0 && now - lastStoreFailureAt <= windowMillis) {
      concerns.add("store-write-failing");
    }
    if (lastOverlapAt > 0 && now - lastOverlapAt <= windowMillis) {
      concerns.add("relay-overlap");
    }
    if (isolationLocksInserts) {
      concerns.add(StoreIsolation.CONCERN);
    }
    return concerns;
  }

  private void checkIsolation() {
    try {
      isolationLocksInserts = StoreIsolation.locksInsertGaps(dataSource);
      if (isolationLocksInserts) {
        LOG.warning(
            "The outbox's MariaDB/MySQL datasource runs at REPEATABLE READ: the relay's batch"
                + " statements can lock the gaps the application inserts into and deadlock its"
                + " transactions. Set the pool's isolation to READ COMMITTED (docs/outbox.md).");
      }
    } catch (SQLException | RuntimeException e) {
      // A database not up yet: the relay retries its sweeps; only this early warning is lost.
      LOG.log(Level.INFO, "Could not read the outbox datasource's isolation: {0}", e.getMessage());
    }
  }

  /** What the last local sweep did (for health), if any. */
  public SweepResult lastSweep() {
    return lastSweep.get();
  }

  private void sweepQuietly() {
    try {
      SweepResult result;
      do {
        result = sweepNow();
      } while (running
          && result != null
          && result.published() >= config.relaySettings().publishLimit());
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Outbox sweep failed; the next one retries: {0}", e.getMessage());
    }
  }

  private void purgeQuietly() {
    try {
      relay.purge(100);
      // Inbox markers of every status (parked ones too) older than the window; a redelivery after
      // that is processed again, so the window must exceed every redelivery and re-send window.
      inbox.purge(System.currentTimeMillis() - config.inboxRetention().toMillis(), 100);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Outbox purge failed: {0}", e.getMessage());
    }
  }

  @PreDestroy
  void stop() {
    running = false;
    if (sweeps != null) {
      sweeps.cancel(false);
    }
    if (purges != null) {
      purges.cancel(false);
    }
    // Drain: wait (bounded by the sweep deadline) for a sweep in progress to finish its row.
    long deadline = System.nanoTime() + config.relaySettings().sweepDeadline().toNanos();
    while (sweeping.get() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    finishing.shutdown(); // a sweep settles its batches before it returns: nothing is left queued
  }
}
