package io.mailbox.connector.provider.file;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.Capabilities;
import io.mailbox.connector.api.CopyState;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.LocatedCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.Lease;
import io.mailbox.connector.spi.LeaseTable;
import io.mailbox.connector.spi.MailboxProvider;
import io.mailbox.connector.spi.ProviderSubscription;
import io.mailbox.connector.spi.Scheduler;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import java.util.logging.Logger;
import java.util.stream.Stream;

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
public final class FileProvider extends MailboxProvider {
  public static final String SCHEME = "file";
  static final String PARKED = "#parked";
  static final String ARCHIVE = "#archive";

  private static final Logger LOG = Logger.getLogger(FileProvider.class.getName());
  private static final Set<String> CAPABILITIES =
      Set.of(
          Capabilities.PEEK,
          Capabilities.LEASE,
          Capabilities.RECOVER,
          Capabilities.STATUS,
          Capabilities.ENUMERATE,
          Capabilities.LOCATE,
          Capabilities.PARKED,
          Capabilities.REMOVE);
  private static final AtomicLong SEQUENCE = new AtomicLong();

  private final Path root;
  private final LeaseTable<Void> leases = new LeaseTable<>();
  private final Set<String> broadcasting = ConcurrentHashMap.newKeySet();
  private final Map<MailAddress, List<ProviderSubscription>> subscribers =
      new ConcurrentHashMap<>();
  private final Map<MailAddress, Instant> lastActivity = new ConcurrentHashMap<>();
  private final Set<Path> reportedCorrupt = ConcurrentHashMap.newKeySet();

  private record Entry(Path file, MailMessage message, boolean read) {
    String key() {
      return message.sendId().orElse(file.getFileName().toString());
    }
  }

  public FileProvider(Path root, Clock clock, Scheduler scheduler) {
    super(clock, scheduler);
    this.root = root.toAbsolutePath().normalize();
  }

  @Override
  public String scheme() {
    return SCHEME;
  }

  @Override
  protected Set<String> declaredCapabilities() {
    return CAPABILITIES;
  }

  @Override
  protected void onStart() {
    try {
      Files.createDirectories(root);
    } catch (IOException e) {
      throw new MailboxException(
          ErrorCode.NOT_STARTED,
          "The mail folder " + root + " cannot be created: " + e.getMessage());
    }
  }

  @Override
  protected void onStop(boolean purge) {
    leases.clear();
    if (purge) {
      clearBacklog();
    }
  }

  /** The folder of an address. */
  Path folder(MailAddress address) {
    Path folder = root.resolve(address.host()).resolve(address.user());
    if (!address.path().isEmpty()) {
      for (String segment : address.path().split("/")) {
        folder = folder.resolve(segment);
      }
    }
    return folder;
  }

  private static String fileName(MailMessage copy, Instant sentAt) {
    return String.format(
        "%013d-%06d-%s.json",
        sentAt.toEpochMilli(), SEQUENCE.incrementAndGet() % 1_000_000, copy.sendId().orElseThrow());
  }

  private void write(Path file, MailMessage copy, boolean read) {
    try {
      MessageFile.writeAtomically(file, MessageFile.serialize(copy, read));
    } catch (IOException e) {
      throw new UncheckedIOException("Writing " + file + " failed", e);
    }
  }

  // ---- the queue: unread files in name order ----------------------------------------------------

  private synchronized List<Entry> entries(Path folder) {
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    List<Entry> entries = new ArrayList<>();
    try (Stream<Path> files = Files.list(folder)) {
      for (Path file :
          files.filter(f -> f.getFileName().toString().endsWith(".json")).sorted().toList()) {
        try {
          MessageFile.Stored stored = MessageFile.read(file);
          entries.add(new Entry(file, stored.message(), stored.read()));
        } catch (IOException e) {
          if (reportedCorrupt.add(file)) {
            LOG.warning(() -> "Skipping corrupt mail file " + file + ": " + e.getMessage());
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Listing " + folder + " failed", e);
    }
    return entries;
  }

  private List<Entry> waiting(MailAddress address) {
    return entries(folder(address)).stream()
        .filter(e -> !e.read() && !leases.holds(e.key()) && !broadcasting.contains(e.key()))
        .toList();
  }

  @Override
  protected void send(MailAddress topic, MailMessage copy) {
    Path file = folder(topic).resolve(fileName(copy, now()));
    List<ProviderSubscription> receivers = List.copyOf(subscribers.getOrDefault(topic, List.of()));
    if (!receivers.isEmpty()) {
      // On disk first (unread): a crash before a subscriber handled it leaves it for fetch.
      broadcasting.add(copy.sendId().orElseThrow());
    }
    write(file, copy, false);
    lastActivity.put(topic, now());
    if (!receivers.isEmpty()) {
      dispatch(topic, copy, receivers);
    }
  }

  @Override
  protected AutoCloseable openSubscription(MailAddress address, ProviderSubscription subscription) {
    List<ProviderSubscription> list =
        subscribers.computeIfAbsent(address, a -> new CopyOnWriteArrayList<>());
    list.add(subscription);
    try {
      Files.createDirectories(folder(address));
    } catch (IOException e) {
      list.remove(subscription);
      throw new UncheckedIOException("Creating the folder of " + address + " failed", e);
    }
    return () -> list.remove(subscription);
  }

  @Override
  protected synchronized List<MailMessage> takeQueued(
      MailAddress address, int limit, Lease lease, UnaryOperator<MailMessage> handOut) {
    if (lease != null) {
      reclaimExpired(address);
    }
    List<MailMessage> taken = new ArrayList<>();
    for (Entry entry : waiting(address)) {
      if (taken.size() == limit) {
        break;
      }
      MailMessage copy = handOut.apply(entry.message());
      // The round goes to disk with the hand-out, so redelivery counts survive a restart.
      write(entry.file(), copy, lease == null);
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
  protected List<MailMessage> peekQueued(MailAddress address, int limit) {
    return waiting(address).stream().limit(limit).map(Entry::message).toList();
  }

  @Override
  protected synchronized Optional<MailMessage> releaseLease(
      MailAddress address, String key, String leaseId) {
    return leases.release(address, key, leaseId).map(LeaseTable.Leased::copy);
  }

  @Override
  protected synchronized void acknowledge(MailAddress topic, MailMessage copy) {
    markRead(topic, copy);
  }

  @Override
  protected synchronized void abandon(MailAddress topic, MailMessage copy) {
    markRead(topic, copy);
  }

  private void markRead(MailAddress topic, MailMessage copy) {
    String key = copy.sendId().orElseThrow();
    broadcasting.remove(key);
    fileOf(topic, key).ifPresent(file -> write(file, copy, true));
  }

  @Override
  protected synchronized boolean requeue(MailAddress address, MailMessage copy) {
    String key = copy.sendId().orElseThrow();
    broadcasting.remove(key);
    if (leases.holds(key)) {
      return false;
    }
    Optional<Path> file = fileOf(address, key);
    if (file.isPresent()) {
      write(file.get(), copy, false); // unread again, carrying its round
      return true;
    }
    write(folder(address).resolve(fileName(copy, now())), copy, false);
    return true;
  }

  private Optional<Path> fileOf(MailAddress address, String key) {
    try (Stream<Path> files = Files.list(folder(address))) {
      return files
          .filter(f -> f.getFileName().toString().endsWith("-" + key + ".json"))
          .findFirst();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  @Override
  protected synchronized void park(MailAddress address, MailMessage record) {
    String key = record.sendId().orElseThrow();
    write(folder(address).resolve(PARKED).resolve(fileName(record, now())), record, true);
    // The original copy leaves the queue: parked records are never handed out again.
    fileOf(address, key)
        .ifPresent(
            file -> {
              try {
                Files.deleteIfExists(file);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
  }

  @Override
  protected synchronized long reclaimExpired(MailAddress address) {
    return leases.takeExpired(address, now()).size();
  }

  @Override
  protected List<LocatedCopy> locateCopies(String messageId) {
    List<LocatedCopy> found = new ArrayList<>();
    for (MailAddress address : addresses()) {
      for (Entry entry : entries(folder(address))) {
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
      for (Entry entry : entries(folder(address).resolve(PARKED))) {
        if (entry.message().id().equals(messageId)) {
          found.add(new LocatedCopy(address, messageId, entry.key(), null, CopyState.PARKED));
        }
      }
    }
    return found;
  }

  @Override
  protected List<MailMessage> parkedCopies(MailAddress address, int limit) {
    return entries(folder(address).resolve(PARKED)).stream()
        .limit(limit)
        .map(Entry::message)
        .toList();
  }

  @Override
  protected synchronized int removeParked(MailAddress address, String key) {
    int removed = 0;
    for (Entry entry : entries(folder(address).resolve(PARKED))) {
      if (key == null || entry.key().equals(key)) {
        try {
          Files.deleteIfExists(entry.file());
          removed++;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    return removed;
  }

  @Override
  protected synchronized List<io.mailbox.connector.api.InFlightCopy> inFlightCopies(
      MailAddress address, int limit) {
    return leases.inFlight(address, limit);
  }

  @Override
  protected synchronized int removeQueuedCopies(MailAddress address, String key) {
    int removed = 0;
    for (Entry entry : waiting(address)) {
      if (key == null || entry.key().equals(key)) {
        try {
          Files.deleteIfExists(entry.file());
          removed++;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    return removed;
  }

  @Override
  protected synchronized long clearBacklog() {
    long dropped = 0;
    for (MailAddress address : addresses()) {
      for (Entry entry : entries(folder(address))) {
        if (!entry.read()) {
          try {
            Files.deleteIfExists(entry.file());
            dropped++;
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
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
    long cutoff = now().minus(olderThan).toEpochMilli();
    Path archive = folder(address).resolve(ARCHIVE);
    int moved = 0;
    for (Entry entry : entries(folder(address))) {
      long sentAt = Long.parseLong(entry.file().getFileName().toString().substring(0, 13));
      if (entry.read() && sentAt < cutoff) {
        try {
          Files.createDirectories(archive);
          Files.move(
              entry.file(),
              archive.resolve(entry.file().getFileName()),
              java.nio.file.StandardCopyOption.ATOMIC_MOVE);
          moved++;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    if (moved > 0) {
      MessageFile.forceFolder(folder(address));
    }
    return moved;
  }

  // ---- status
  // --------------------------------------------------------------------------------------

  /** Every address with a folder under the root. */
  private List<MailAddress> addresses() {
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    List<MailAddress> found = new ArrayList<>();
    try (Stream<Path> folders = Files.walk(root)) {
      for (Path folder : folders.filter(Files::isDirectory).toList()) {
        Path relative = root.relativize(folder);
        if (relative.getNameCount() < 2 || relative.toString().contains("#")) {
          continue;
        }
        String host = relative.getName(0).toString();
        String user = relative.getName(1).toString();
        String path =
            relative.getNameCount() > 2
                ? relative.subpath(2, relative.getNameCount()).toString().replace('\\', '/')
                : "";
        MailAddress address;
        try {
          address =
              MailAddress.parse(
                  SCHEME + "://" + user + "@" + host + (path.isEmpty() ? "" : "/" + path));
        } catch (MailboxException ignored) {
          continue; // a folder no address names (created by hand): not a mailbox
        }
        // A parent folder of deeper mailboxes is a mailbox only if it holds mail or is in use here.
        if (holdsMail(folder)
            || subscribers.containsKey(address)
            || lastActivity.containsKey(address)) {
          found.add(address);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Listing " + root + " failed", e);
    }
    return found;
  }

  private static boolean holdsMail(Path folder) {
    if (Files.isDirectory(folder.resolve(PARKED))) {
      return true;
    }
    try (Stream<Path> files = Files.list(folder)) {
      return files.anyMatch(f -> f.getFileName().toString().endsWith(".json"));
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public AddressStatus status(MailAddress address) {
    Path folder = folder(address);
    if (!Files.isDirectory(folder)) {
      return AddressStatus.unknown(address);
    }
    List<Entry> all = entries(folder);
    Instant now = now();
    LeaseTable.Census leased = leases.census(address, now);
    long overdue = leased.overdue();
    long unread =
        all.stream()
            .filter(e -> !e.read() && !leases.holds(e.key()) && !broadcasting.contains(e.key()))
            .count();
    long corrupt;
    try (Stream<Path> files = Files.list(folder)) {
      corrupt =
          files.filter(f -> f.getFileName().toString().endsWith(".json")).count() - all.size();
    } catch (IOException e) {
      corrupt = 0;
    }
    Map<String, Object> extensions = new LinkedHashMap<>();
    extensions.put(SCHEME + ".readCount", all.stream().filter(Entry::read).count());
    extensions.put(SCHEME + ".corruptCount", corrupt);
    extensions.put(SCHEME + ".overdueInFlightCount", overdue);
    extensions.put(SCHEME + ".parkedCount", (long) entries(folder.resolve(PARKED)).size());
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
  public Optional<List<AddressStatus>> enumerate() {
    return Optional.of(
        addresses().stream()
            .map(this::status)
            .sorted(Comparator.comparing(AddressStatus::address))
            .toList());
  }
}
