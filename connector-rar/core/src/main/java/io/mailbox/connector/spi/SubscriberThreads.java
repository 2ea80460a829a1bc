package io.mailbox.connector.spi;

import io.mailbox.connector.api.MailAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

/**
 * The local subscribers of each address and the one reader thread they share, for a transport that
 * reads a broker on threads of its own. The first subscriber of an address starts its reader; the
 * reader runs {@code readLoop} while the address has active subscribers and the transport is not
 * stopping, and a subscriber that came while a reader was leaving gets a reader of its own. How to
 * read is the transport's; this class only keeps who reads what.
 */
public final class SubscriberThreads {
  /** One address's read loop: it returns once {@code keepReading} says false. */
  @FunctionalInterface
  public interface ReadLoop {
    void read(MailAddress address, BooleanSupplier keepReading);
  }

  private final String threadPrefix;
  private final ReadLoop readLoop;
  private final Map<MailAddress, List<Receiver>> subscribers = new ConcurrentHashMap<>();
  private final Map<MailAddress, Thread> readers = new ConcurrentHashMap<>();

  public SubscriberThreads(String threadPrefix, ReadLoop readLoop) {
    this.threadPrefix = threadPrefix;
    this.readLoop = readLoop;
  }

  /** Adds a receiver; the handle removes it, and the reader stops after the last one leaves. */
  public AutoCloseable add(MailAddress address, Receiver receiver) {
    List<Receiver> list = subscribers.computeIfAbsent(address, a -> new CopyOnWriteArrayList<>());
    list.add(receiver);
    readers.computeIfAbsent(address, this::startReader);
    return () -> list.remove(receiver);
  }

  /** The active receivers of {@code address}. */
  public List<Receiver> receivers(MailAddress address) {
    return subscribers.getOrDefault(address, List.of()).stream()
        .filter(Receiver::isActive)
        .toList();
  }

  /**
   * {@code last} while every receiver in it is still active, else the active receivers now: a
   * reader looks its receivers up once per batch, and nothing goes to one after it unsubscribed.
   */
  public List<Receiver> stillActive(MailAddress address, List<Receiver> last) {
    for (Receiver receiver : last) {
      if (!receiver.isActive()) {
        return receivers(address);
      }
    }
    return last;
  }

  /** The addresses that have (or had) subscribers here. */
  public Set<MailAddress> addresses() {
    return subscribers.keySet();
  }

  /** Stops every reader (the transport stops) and waits up to 5 s for each. */
  public void stopAll() {
    readers.values().forEach(Thread::interrupt);
    readers.values().forEach(SubscriberThreads::join);
    readers.clear();
  }

  /** Sleeps {@code pause}; an interrupt ends it early and stays set (the reader is stopping). */
  public static void pause(Duration pause) {
    try {
      Thread.sleep(pause.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private Thread startReader(MailAddress address) {
    Thread thread = new Thread(() -> read(address), threadPrefix + address.mailbox());
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  private void read(MailAddress address) {
    try {
      readLoop.read(
          address, () -> !Thread.currentThread().isInterrupted() && !receivers(address).isEmpty());
    } finally {
      readers.remove(address, Thread.currentThread());
      if (!receivers(address).isEmpty() && !Thread.currentThread().isInterrupted()) {
        readers.computeIfAbsent(address, this::startReader);
      }
    }
  }

  private static void join(Thread thread) {
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
