package io.mailbox.connector.jca.outbound;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The prepare log's directory: one file per branch, named {@code <branch key>.prepared} or {@code
 * <branch key>.committed}. Every change is a whole file written to a temporary name, forced to
 * disk, renamed into place and followed by a force of the directory, so a reader finds the old
 * entry or the new one, never a torn one; a file that still does not read back is moved to {@code
 * corrupt/} and reported, never deleted.
 */
final class PrepareLogFiles {
  private static final Logger LOG = Logger.getLogger(PrepareLogFiles.class.getName());
  private static final String TEMPORARY_PREFIX = ".tmp-";
  static final String CORRUPT_FOLDER = "corrupt";

  private final Path directory;

  PrepareLogFiles(Path directory) {
    this.directory = directory;
  }

  Path directory() {
    return directory;
  }

  /** Writes the entry under the name of its state; returns once it is durable. */
  void write(LoggedBranch branch) throws IOException {
    if (!Files.isDirectory(directory)) {
      Files.createDirectories(directory);
      // The new directory's own name must survive a crash too.
      forceDirectory(directory.getParent());
    }
    Path temporary = directory.resolve(TEMPORARY_PREFIX + UUID.randomUUID());
    try {
      try (FileChannel channel =
          FileChannel.open(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        ByteBuffer bytes = ByteBuffer.wrap(PrepareLogFormat.encode(branch));
        while (bytes.hasRemaining()) {
          channel.write(bytes);
        }
        // Content first: after the rename below, the name must never point at unwritten blocks.
        channel.force(true);
      }
      Files.move(
          temporary,
          fileOf(branch.xid(), branch.state()),
          StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("the file system cannot rename atomically in " + directory, e);
    } finally {
      Files.deleteIfExists(temporary);
    }
    forceDirectory(directory);
  }

  /**
   * Reads one branch: its committed entry when there is one (a commit that could not deliver
   * everything supersedes the prepared entry), else its prepared entry.
   */
  Optional<LoggedBranch> read(BranchId xid) throws IOException {
    for (LoggedBranch.State state :
        List.of(LoggedBranch.State.COMMITTED, LoggedBranch.State.PREPARED)) {
      Optional<LoggedBranch> branch = readFile(fileOf(xid, state));
      if (branch.isPresent()) {
        return branch;
      }
    }
    return Optional.empty();
  }

  /** Every readable entry in the given state; unreadable ones are set aside on the way. */
  List<LoggedBranch> list(LoggedBranch.State state) throws IOException {
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    Set<String> names = new HashSet<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
      files.forEach(file -> names.add(file.getFileName().toString()));
    }
    List<LoggedBranch> branches = new ArrayList<>();
    for (String name : names.stream().sorted().toList()) {
      if (!name.endsWith(state.suffix())) {
        continue;
      }
      String key = name.substring(0, name.length() - state.suffix().length());
      if (state == LoggedBranch.State.PREPARED
          && names.contains(key + LoggedBranch.State.COMMITTED.suffix())) {
        // A commit rewrote this branch and crashed before removing the prepared entry.
        delete(directory.resolve(name));
        continue;
      }
      readFile(directory.resolve(name)).ifPresent(branches::add);
    }
    return branches;
  }

  /** Removes the branch's entry in this state (if any) durably. */
  void delete(BranchId xid, LoggedBranch.State state) throws IOException {
    delete(fileOf(xid, state));
  }

  /** Removes temporary files a crash left behind: they were never entries (not yet renamed). */
  int removeTemporaryFiles() throws IOException {
    if (!Files.isDirectory(directory)) {
      return 0;
    }
    int removed = 0;
    try (DirectoryStream<Path> files =
        Files.newDirectoryStream(directory, TEMPORARY_PREFIX + "*")) {
      for (Path file : files) {
        Files.deleteIfExists(file);
        removed++;
      }
    }
    return removed;
  }

  private Path fileOf(BranchId xid, LoggedBranch.State state) {
    return directory.resolve(xid.key() + state.suffix());
  }

  private Optional<LoggedBranch> readFile(Path file) throws IOException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    try {
      LoggedBranch branch = PrepareLogFormat.decode(bytes);
      String expected = branch.xid().key() + branch.state().suffix();
      if (!expected.equals(file.getFileName().toString())) {
        throw new PrepareLogFormat.UnreadableEntryException(
            "its content names another branch or state (" + expected + ")");
      }
      return Optional.of(branch);
    } catch (PrepareLogFormat.UnreadableEntryException e) {
      setAside(file, e.getMessage());
      return Optional.empty();
    }
  }

  private void setAside(Path file, String reason) throws IOException {
    Path corrupt = directory.resolve(CORRUPT_FOLDER);
    Files.createDirectories(corrupt);
    Path target = corrupt.resolve(file.getFileName());
    if (Files.exists(target)) {
      target = corrupt.resolve(file.getFileName() + "." + System.currentTimeMillis());
    }
    Files.move(file, target, StandardCopyOption.ATOMIC_MOVE);
    forceDirectory(corrupt);
    forceDirectory(directory);
    LOG.log(
        Level.SEVERE,
        "Prepare log entry {0} is unreadable: {1}. Moved to {2}; its posts are NOT delivered"
            + " until someone repairs it and moves it back (docs/transactions.md).",
        new Object[] {file, reason, target});
  }

  private void delete(Path file) throws IOException {
    if (Files.deleteIfExists(file)) {
      forceDirectory(directory);
    }
  }

  /** Makes renames and deletions in {@code folder} durable (Linux; a no-op where unsupported). */
  private static void forceDirectory(Path folder) throws IOException {
    if (folder == null) {
      return;
    }
    try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (UnsupportedOperationException e) {
      // Windows cannot open a directory: its renames are journaled by NTFS instead.
      LOG.log(Level.FINE, "cannot force directory " + folder, e);
    }
  }
}
