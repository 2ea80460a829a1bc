package io.mailbox.connector.provider.file;

import io.mailbox.connector.spi.ProviderFactory;
import io.mailbox.connector.spi.ProviderSettings;
import io.mailbox.connector.spi.Scheduler;
import io.mailbox.connector.spi.Setting;
import io.mailbox.connector.spi.Transport;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/** Builds {@code file:} for the adapter (found through {@code META-INF/services}). */
public final class FileProviderFactory implements ProviderFactory<Path> {
  static final Setting ROOT =
      Setting.text(
          "fileRoot",
          "",
          "The file: provider's mail folder; empty means data/mail under the server's working"
              + " directory.");

  @Override
  public String scheme() {
    return FileProvider.SCHEME;
  }

  @Override
  public List<Setting> settings() {
    return List.of(ROOT);
  }

  /** The mail folder; empty means {@code <working directory>/data/mail}. */
  @Override
  public Path configure(ProviderSettings settings) {
    String configured = settings.text(ROOT);
    String root = configured == null || configured.isBlank() ? "data/mail" : configured.strip();
    try {
      return Path.of(root).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      // A NUL or a character the file system cannot name (found by AdapterSettingsFuzzTest).
      throw ProviderSettings.invalid(ROOT, "is not a path on this file system");
    }
  }

  @Override
  public Transport create(Path root, Scheduler scheduler) {
    return new FileProvider(root, Clock.systemUTC(), scheduler);
  }
}
