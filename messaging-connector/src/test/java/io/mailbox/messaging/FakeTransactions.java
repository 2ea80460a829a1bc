package io.mailbox.messaging;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * JTA transactions as a channel sees them through the registry, without a server: each thread can
 * be put inside a transaction (a key), and completing one runs its before-completion checks.
 */
final class FakeTransactions implements TransactionSynchronizationRegistry {
  private final ThreadLocal<Object> current = new ThreadLocal<>();
  private final Map<Object, List<Synchronization>> synchronizations = new HashMap<>();
  private final Set<Object> rollbackOnly = new HashSet<>();

  /** Puts the calling thread inside transaction {@code key} ({@code null}: none). */
  void enter(Object key) {
    current.set(key);
  }

  /** Runs the before-completion checks of {@code key}; whether it would commit. */
  synchronized boolean complete(Object key) {
    Object was = current.get();
    current.set(key);
    try {
      for (Synchronization check : synchronizations.getOrDefault(key, List.of())) {
        check.beforeCompletion();
      }
    } finally {
      current.set(was);
    }
    return !rollbackOnly.contains(key);
  }

  synchronized boolean isRollbackOnly(Object key) {
    return rollbackOnly.contains(key);
  }

  @Override
  public Object getTransactionKey() {
    return current.get();
  }

  @Override
  public int getTransactionStatus() {
    Object key = current.get();
    if (key == null) {
      return Status.STATUS_NO_TRANSACTION;
    }
    synchronized (this) {
      return rollbackOnly.contains(key) ? Status.STATUS_MARKED_ROLLBACK : Status.STATUS_ACTIVE;
    }
  }

  @Override
  public synchronized void registerInterposedSynchronization(Synchronization sync) {
    synchronizations.computeIfAbsent(current.get(), k -> new ArrayList<>()).add(sync);
  }

  @Override
  public synchronized void setRollbackOnly() {
    rollbackOnly.add(current.get());
  }

  @Override
  public synchronized boolean getRollbackOnly() {
    return rollbackOnly.contains(current.get());
  }

  @Override
  public void putResource(Object key, Object value) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Object getResource(Object key) {
    throw new UnsupportedOperationException();
  }
}
