package io.mailbox.benchmarks;

import io.mailbox.ejb.outbox.JpaOutboxQueries;
import io.mailbox.ejb.outbox.OutboxStore;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.function.Function;

/** What the relay benchmarks share: local transactions, the server's store shape, medians. */
final class OutboxBench {
  private OutboxBench() {}

  /** Nanoseconds spent in each store method (its whole transaction), summed since cleared. */
  static final java.util.Map<String, Long> STORE_NANOS =
      new java.util.concurrent.ConcurrentSkipListMap<>();

  /** Nanoseconds the benchmarks' relays spent in the provider's post calls (confirms included). */
  static final java.util.concurrent.atomic.AtomicLong PUBLISH_NANOS =
      new java.util.concurrent.atomic.AtomicLong();

  /**
   * A relay of {@code store} with the shipped settings that posts to {@code provider} as the
   * server's publisher does (the same message per row): one row with {@code post}, a batch with one
   * {@code postAll}, several rows of a key in one call where the provider keeps a call's order.
   */
  static io.mailbox.ejb.outbox.OutboxRelay relayTo(
      OutboxStore store, io.mailbox.connector.kernel.MailboxProvider provider) {
    return relayTo(store, provider, "bench");
  }

  /**
   * {@link #relayTo(OutboxStore, io.mailbox.connector.kernel.MailboxProvider)} named {@code id}.
   */
  static io.mailbox.ejb.outbox.OutboxRelay relayTo(
      OutboxStore store, io.mailbox.connector.kernel.MailboxProvider provider, String id) {
    return relayTo(store, provider, id, FINISHING);
  }

  /**
   * Where the benchmarks' relays finish their batches (publish, mark sent): threads beside the
   * sweeping one, as the server's relay service does; {@code -Dbench.relaySequential=true} finishes
   * each batch on the sweeping thread before the next is read (the relay before 2026-12-07).
   */
  static final java.util.concurrent.Executor FINISHING =
      Boolean.getBoolean("bench.relaySequential") ? Runnable::run : finishingThreads();

  /** Daemon threads, made as needed and kept: the benchmark exits without shutting them down. */
  static java.util.concurrent.Executor finishingThreads() {
    return java.util.concurrent.Executors.newCachedThreadPool(
        task -> {
          Thread thread = new Thread(task, "relay-finish");
          thread.setDaemon(true);
          return thread;
        });
  }

  /** A relay named {@code id} that finishes its batches on {@code finishing}. */
  static io.mailbox.ejb.outbox.OutboxRelay relayTo(
      OutboxStore store,
      io.mailbox.connector.kernel.MailboxProvider provider,
      String id,
      java.util.concurrent.Executor finishing) {
    io.mailbox.ejb.outbox.OutboxPublisher publisher =
        new io.mailbox.ejb.outbox.OutboxPublisher() {
          @Override
          public boolean keepsOrderWithinCall(String address) {
            return provider.supports(io.mailbox.connector.api.Capabilities.ORDERED_BATCH);
          }

          @Override
          public void publish(io.mailbox.ejb.outbox.OutboxRow row) {
            long start = System.nanoTime();
            try {
              provider.post(row.toMessage());
            } finally {
              PUBLISH_NANOS.addAndGet(System.nanoTime() - start);
            }
          }

          @Override
          public java.util.List<Exception> publishAll(
              java.util.List<io.mailbox.ejb.outbox.OutboxRow> rows) {
            long start = System.nanoTime();
            try {
              provider.postAll(
                  rows.stream().map(io.mailbox.ejb.outbox.OutboxRow::toMessage).toList());
              return java.util.Collections.nCopies(rows.size(), null);
            } catch (RuntimeException e) {
              return java.util.Collections.nCopies(rows.size(), e);
            } finally {
              PUBLISH_NANOS.addAndGet(System.nanoTime() - start);
            }
          }
        };
    return new io.mailbox.ejb.outbox.OutboxRelay(
        store,
        publisher,
        io.mailbox.ejb.outbox.RelaySettings.defaults(),
        java.time.Clock.systemUTC(),
        id,
        io.mailbox.ejb.outbox.RelayListener.NONE,
        finishing);
  }

  static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  static <T> T inTransaction(EntityManagerFactory factory, Function<EntityManager, T> work) {
    EntityManager em = factory.createEntityManager();
    EntityTransaction tx = em.getTransaction();
    try {
      tx.begin();
      T result = work.apply(em);
      tx.commit();
      return result;
    } finally {
      if (tx.isActive()) {
        tx.rollback();
      }
      em.close();
    }
  }

  /** Each store call in its own transaction, as the server's REQUIRES_NEW store does. */
  static OutboxStore perCallTransactions(EntityManagerFactory factory) {
    return (OutboxStore)
        Proxy.newProxyInstance(
            OutboxStore.class.getClassLoader(),
            new Class<?>[] {OutboxStore.class},
            (proxy, method, arguments) -> {
              long t0 = System.nanoTime();
              try {
                return inTransaction(
                    factory,
                    em -> {
                      try {
                        return method.invoke(new JpaOutboxQueries(em), arguments);
                      } catch (InvocationTargetException | IllegalAccessException e) {
                        throw new IllegalStateException(e);
                      }
                    });
              } finally {
                STORE_NANOS.merge(method.getName(), System.nanoTime() - t0, Long::sum);
              }
            });
  }
}
