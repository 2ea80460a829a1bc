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
    io.mailbox.ejb.outbox.OutboxPublisher publisher =
        new io.mailbox.ejb.outbox.OutboxPublisher() {
          @Override
          public boolean keepsOrderWithinCall(String address) {
            return provider.supports(io.mailbox.connector.api.Capabilities.ORDERED_BATCH);
          }

          @Override
          public void publish(io.mailbox.ejb.outbox.OutboxRow row) {
            provider.post(row.toMessage());
          }

          @Override
          public java.util.List<Exception> publishAll(
              java.util.List<io.mailbox.ejb.outbox.OutboxRow> rows) {
            try {
              provider.postAll(
                  rows.stream().map(io.mailbox.ejb.outbox.OutboxRow::toMessage).toList());
              return java.util.Collections.nCopies(rows.size(), null);
            } catch (RuntimeException e) {
              return java.util.Collections.nCopies(rows.size(), e);
            }
          }
        };
    return new io.mailbox.ejb.outbox.OutboxRelay(
        store,
        publisher,
        io.mailbox.ejb.outbox.RelaySettings.defaults(),
        java.time.Clock.systemUTC(),
        id);
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
