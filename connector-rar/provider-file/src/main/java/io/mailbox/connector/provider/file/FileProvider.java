package io.mailbox.connector.provider.file;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.CopyState;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.LocatedCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.Enumerating;
import io.mailbox.connector.spi.Lease;
import io.mailbox.connector.spi.LeaseTable;
import io.mailbox.connector.spi.Locating;
import io.mailbox.connector.spi.ParkedRecords;
import io.mailbox.connector.spi.Peeking;
import io.mailbox.connector.spi.Receiver;
import io.mailbox.connector.spi.Recovering;
import io.mailbox.connector.spi.Removing;
import io.mailbox.connector.spi.Scheduler;
import io.mailbox.connector.spi.SignalsArrivals;
import io.mailbox.connector.spi.TransportBase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import java.util.logging.Logger;

/**
 * The {@code file:} provider: {@code file:user@host/path} is the folder {@code
 * <root>/host/user/path}; each message one JSON file named so a listing sorts by time ({@code
 * <millis>-<sequence>-<copy key>.json}), written atomically. Unread files are the queue; a handled
 * message stays as a read file (a mail folder keeps its mail) until {@link #archive} moves it to
 * {@code #archive/}; parked records live in {@code #parked/}. A corrupt file is logged once and
 * skipped, never handed out and never fatal.
 *
 * <p>What a folder cannot do, declared honestly: leases and subscriptions live in this provider
 * instance only (two processes polling one folder can both take an unread file); handed-out copies
 * are written back with their round so redelivery counts survive a restart; a message handed to
 * subscribers is on disk, unread, until a subscriber handled it, so a crash re-offers it to fetch
 * (at least once).
 */
public final class FileProvider extends TransportBase
    implements Peeking,
        Recovering,
        Enumerating,
        Locating,
        ParkedRecords,
        Removing,
        SignalsArrivals {
  public static final String SCHEME = "file";

  private static final Logger LOG = Logger.getLogger(FileProvider.class.getName());

  private final MailFolder mail;
  private final LeaseTable<Void> leases = new LeaseTable<>();
  private final Set<String> broadcasting = ConcurrentHashMap.newKeySet();
  private final Map<MailAddress, List<Receiver>> subscribers = new ConcurrentHashMap<>();
  private final Map<MailAddress, Instant> lastActivity = new ConcurrentHashMap<>();
  private final WaitingConsumers arrivals =
      new WaitingConsumers(address -> !waiting(address).isEmpty());

  public FileProvider(Path root, Clock clock, Scheduler scheduler) {
    super(clock, scheduler);
    this.mail = new MailFolder(root);
  }

  @Override
  public String scheme() {
    return SCHEME;
  }

  @Override
  public void start() {
    try {
      Files.createDirectories(mail.root());
    } catch (IOException e) {
      throw new MailboxException(
          ErrorCode.NOT_STARTED,
          "The mail folder " + mail.root() + " cannot be created: " + e.getMessage());
    }
  }

  @Override
  public void stop(boolean purge) {
    leases.clear();
    if (purge) {
      clearBacklog();
    }
  }

  /** The folder of an address. */
  Path folder(MailAddress address) {
    return mail.folder(address);
  }

  // ---- the queue: unread files in name order ----------------------------------------------------

  private List<MailFolder.Entry> waiting(MailAddress address) {
    return mail.entries(mail.folder(address)).stream()
        .filter(e -> !e.read() && !leases.holds(e.key()) && !broadcasting.contains(e.key()))
        .toList();
  }

  @Override
  public void send(MailAddress topic, MailMessage copy) {
    Path file = mail.folder(topic).resolve(MailFolder.fileName(copy, now()));
    List<Receiver> receivers = List.copyOf(subscribers.getOrDefault(topic, List.of()));
    if (!receivers.isEmpty()) {
      // On disk first (unread): a crash before a subscriber handled it leaves it for fetch.
      broadcasting.add(copy.sendId().orElseThrow());
    }
    mail.write(file, copy, false);
    lastActivity.put(topic, now());
    if (receivers.isEmpty()) {
      arrivals.queued(topic);
    } else {
      dispatch(topic, copy, receivers);
    }
  }

  @Override
  public Runnable onNextArrival(MailAddress address, Runnable signal) {
    return arrivals.await(address, signal);
  }

  @Override
  public AutoCloseable openSubscription(MailAddress address, Receiver subscription) {
    List<Receiver> list = subscribers.computeIfAbsent(address, a -> new CopyOnWriteArrayList<>());
    list.add(subscription);
    try {
      Files.createDirectories(mail.folder(address));
    } catch (IOException e) {
      list.remove(subscription);
      throw new UncheckedIOException("Creating the folder of " + address + " failed", e);
    }
    return () -> list.remove(subscription);
  }

  @Override
  public List<MailMessage> takeQueued(
      MailAddress address, int limit, Lease lease, UnaryOperator<MailMessage> handOut) {
    if (lease != null) {
      reclaimExpired(address); // the lazy sweep, outside the take: it signals who waits
    }
    return take(address, limit, lease, handOut);
  }

  private synchronized List<MailMessage> take(
      MailAddress address, int limit, Lease lease, UnaryOperator<MailMessage> handOut) {
    List<MailMessage> taken = new ArrayList<>();
    for (MailFolder.Entry entry : waiting(address)) {
      if (taken.size() == limit) {
        break;
      }
      MailMessage copy = handOut.apply(entry.message());
      // The round goes to disk with the hand-out, so redelivery counts survive a restart.
      mail.write(entry.file(), copy, lease == null);
      if (lease != null) {
        leases.put(entry.key(), address, lease, copy, null);
      }
      taken.add(copy);
    }
    if (!taken.isEmpty()) {
      lastActivity.put(address, now());
    }
    return taken;
  }

  @Override
  public List<MailMessage> peekQueued(MailAddress address, int limit) {
    return waiting(address).stream().limit(limit).map(MailFolder.Entry::message).toList();
  }

  @Override
  public synchronized Optional<MailMessage> releaseLease(
      MailAddress address, String key, String leaseId) {
    return leases.release(address, key, leaseId).map(LeaseTable.Leased::copy);
  }

  @Override
  public synchronized void acknowledge(MailAddress topic, MailMessage copy) {
    markRead(topic, copy);
  }

  @Override
  public synchronized void abandon(MailAddress topic, MailMessage copy) {
    markRead(topic, copy);
  }

  private void markRead(MailAddress topic, MailMessage copy) {
    String key = copy.sendId().orElseThrow();
    broadcasting.remove(key);
    mail.fileOf(topic, key).ifPresent(file -> mail.write(file, copy, true));
  }

  @Override
  public boolean requeue(MailAddress address, MailMessage copy) {
    boolean queued = putBack(address, copy);
    if (queued) {
      arrivals.queued(address);
    }
    return queued;
  }

  private synchronized boolean putBack(MailAddress address, MailMessage copy) {
    String key = copy.sendId().orElseThrow();
    broadcasting.remove(key);
    if (leases.holds(key)) {
      return false;
    }
    Optional<Path> file = mail.fileOf(address, key);
    if (file.isPresent()) {
      mail.write(file.get(), copy, false); // unread again, carrying its round
      return true;
    }
    mail.write(mail.folder(address).resolve(MailFolder.fileName(copy, now())), copy, false);
    return true;
  }

  @Override
  public synchronized void park(MailAddress address, MailMessage record) {
    String key = record.sendId().orElseThrow();
    mail.write(
        mail.folder(address).resolve(MailFolder.PARKED).resolve(MailFolder.fileName(record, now())),
        record,
        true);
    // The original copy leaves the queue: parked records are never handed out again.
    mail.fileOf(address, key).ifPresent(mail::delete);
  }

  @Override
  public long reclaimExpired(MailAddress address) {
    long reclaimed = dropExpiredLeases(address);
    if (reclaimed > 0) {
      arrivals.queued(address);
    }
    return reclaimed;
  }

  /** Their files are unread: they are queued again. */
  private synchronized long dropExpiredLeases(MailAddress address) {
    return leases.takeExpired(address, now()).size();
  }

  @Override
  public List<LocatedCopy> locateCopies(String messageId) {
    List<LocatedCopy> found = new ArrayList<>();
    for (MailAddress address : addresses()) {
      for (MailFolder.Entry entry : mail.entries(mail.folder(address))) {
        if (!entry.message().id().equals(messageId) || entry.read()) {
          continue;
        }
        LeaseTable.Leased<Void> held = leases.get(entry.key()).orElse(null);
        found.add(
            new LocatedCopy(
                address,
                messageId,
                entry.key(),
                held == null ? null : held.lease().id(),
                held == null ? CopyState.QUEUED : CopyState.IN_FLIGHT));
      }
      for (MailFolder.Entry entry : mail.entries(mail.folder(address).resolve(MailFolder.PARKED))) {
        if (entry.message().id().equals(messageId)) {
          found.add(new LocatedCopy(address, messageId, entry.key(), null, CopyState.PARKED));
        }
      }
    }
    return found;
  }

  @Override
  public List<MailMessage> parkedCopies(MailAddress address, int limit) {
    return mail.entries(mail.folder(address).resolve(MailFolder.PARKED)).stream()
        .limit(limit)
        .map(MailFolder.Entry::message)
        .toList();
  }

  @Override
  public synchronized int removeParked(MailAddress address, String key) {
    int removed = 0;
    for (MailFolder.Entry entry : mail.entries(mail.folder(address).resolve(MailFolder.PARKED))) {
      if (key == null || entry.key().equals(key)) {
        mail.delete(entry.file());
        removed++;
      }
    }
    return removed;
  }

  @Override
  public synchronized List<io.mailbox.connector.api.InFlightCopy> inFlightCopies(
      MailAddress address, int limit) {
    return leases.inFlight(address, limit);
  }

  @Override
  public synchronized int removeQueuedCopies(MailAddress address, String key) {
    int removed = 0;
    for (MailFolder.Entry entry : waiting(address)) {
      if (key == null || entry.key().equals(key)) {
        mail.delete(entry.file());
        removed++;
      }
    }
    return removed;
  }

  @Override
  public synchronized long clearBacklog() {
    long dropped = 0;
    for (MailAddress address : addresses()) {
      for (MailFolder.Entry entry : mail.entries(mail.folder(address))) {
        if (!entry.read()) {
          mail.delete(entry.file());
          dropped++;
        }
      }
    }
    leases.clear();
    return dropped;
  }

  /**
   * Moves read messages sent before {@code olderThan} ago into {@code #archive/} (by rename, so
   * nothing is lost); unread ones stay in the queue. Returns how many moved.
   */
  public synchronized int archive(MailAddress address, Duration olderThan) {
    return mail.archive(address, now().minus(olderThan).toEpochMilli());
  }

  // ---- status ----------------------------------------------------------------------------------

  /** Every address with a folder that holds mail or is in use here. */
  private List<MailAddress> addresses() {
    return mail.addresses(
        address -> subscribers.containsKey(address) || lastActivity.containsKey(address));
  }

  @Override
  public AddressStatus status(MailAddress address) {
    Path folder = mail.folder(address);
    if (!Files.isDirectory(folder)) {
      return AddressStatus.unknown(address);
    }
    List<MailFolder.Entry> all = mail.entries(folder);
    Instant now = now();
    LeaseTable.Census leased = leases.census(address, now);
    long overdue = leased.overdue();
    long unread =
        all.stream()
            .filter(e -> !e.read() && !leases.holds(e.key()) && !broadcasting.contains(e.key()))
            .count();
    long corrupt = mail.files(folder) - all.size();
    Map<String, Object> extensions = new LinkedHashMap<>();
    extensions.put(SCHEME + ".readCount", all.stream().filter(MailFolder.Entry::read).count());
    extensions.put(SCHEME + ".corruptCount", corrupt);
    extensions.put(SCHEME + ".overdueInFlightCount", overdue);
    extensions.put(
        SCHEME + ".parkedCount", (long) mail.entries(folder.resolve(MailFolder.PARKED)).size());
    extensions.put(
        SCHEME + ".subscriberCount", subscribers.getOrDefault(address, List.of()).size());
    return new AddressStatus(
        address,
        AddressState.ONLINE,
        true,
        unread,
        leased.inFlight() + broadcastsInFlight(address),
        lastActivity.get(address),
        extensions);
  }

  @Override
  public List<AddressStatus> enumerate() {
    return addresses().stream()
        .map(this::status)
        .sorted(Comparator.comparing(AddressStatus::address))
        .toList();
  }
}
