package io.mailbox.connector.provider.file;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * The {@code file:} provider's folders on disk: {@code <root>/host/user/path} per address, one JSON
 * file per message named so a listing sorts by time ({@code <millis>-<sequence>-<copy key>.json}),
 * {@code #parked/} and {@code #archive/} beside them. Knows files, not the kernel's rules; a
 * corrupt file is logged once and skipped.
 */
final class MailFolder {
  static final String PARKED = "#parked";
  static final String ARCHIVE = "#archive";

  private static final Logger LOG = Logger.getLogger(MailFolder.class.getName());
  private static final AtomicLong SEQUENCE = new AtomicLong();

  private final Path root;
  private final Set<Path> reportedCorrupt = ConcurrentHashMap.newKeySet();

  /** One message file: its copy and whether it was read (handled). */
  record Entry(Path file, MailMessage message, boolean read) {
    String key() {
      return message.sendId().orElse(file.getFileName().toString());
    }
  }

  MailFolder(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  Path root() {
    return root;
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

  static String fileName(MailMessage copy, Instant sentAt) {
    return String.format(
        "%013d-%06d-%s.json",
        sentAt.toEpochMilli(), SEQUENCE.incrementAndGet() % 1_000_000, copy.sendId().orElseThrow());
  }

  void write(Path file, MailMessage copy, boolean read) {
    try {
      MessageFile.writeAtomically(file, MessageFile.serialize(copy, read));
    } catch (IOException e) {
      throw new UncheckedIOException("Writing " + file + " failed", e);
    }
  }

  /** Removes a message file if it is still there. */
  void delete(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException("Deleting " + file + " failed", e);
    }
  }

  /** The readable message files of {@code folder}, in name (time) order. */
  List<Entry> entries(Path folder) {
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

  /** How many message files {@code folder} holds, readable or not. */
  long files(Path folder) {
    try (Stream<Path> files = Files.list(folder)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".json")).count();
    } catch (IOException e) {
      return 0;
    }
  }

  /** The file of the copy with {@code key} at {@code address}, if there is one. */
  Optional<Path> fileOf(MailAddress address, String key) {
    try (Stream<Path> files = Files.list(folder(address))) {
      return files
          .filter(f -> f.getFileName().toString().endsWith("-" + key + ".json"))
          .findFirst();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * Moves read messages sent before {@code cutoffMillis} into {@code #archive/} (by rename, so
   * nothing is lost); unread ones stay. Returns how many moved.
   */
  int archive(MailAddress address, long cutoffMillis) {
    Path archive = folder(address).resolve(ARCHIVE);
    int moved = 0;
    for (Entry entry : entries(folder(address))) {
      long sentAt = Long.parseLong(entry.file().getFileName().toString().substring(0, 13));
      if (entry.read() && sentAt < cutoffMillis) {
        try {
          Files.createDirectories(archive);
          Files.move(
              entry.file(),
              archive.resolve(entry.file().getFileName()),
              StandardCopyOption.ATOMIC_MOVE);
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

  /**
   * Every address with a folder under the root that holds mail, or that {@code inUse} says is in
   * use (a parent folder of deeper mailboxes is a mailbox only then).
   */
  List<MailAddress> addresses(Predicate<MailAddress> inUse) {
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
                  FileProvider.SCHEME
                      + "://"
                      + user
                      + "@"
                      + host
                      + (path.isEmpty() ? "" : "/" + path));
        } catch (MailboxException ignored) {
          continue; // a folder no address names (created by hand): not a mailbox
        }
        if (holdsMail(folder) || inUse.test(address)) {
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
}
