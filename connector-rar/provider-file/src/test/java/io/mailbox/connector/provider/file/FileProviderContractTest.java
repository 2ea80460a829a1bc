package io.mailbox.connector.provider.file;

import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.spi.Transport;
import io.mailbox.connector.tck.ProviderContract;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.io.TempDir;

/** {@code file:} keeps the provider contract, on a fresh folder per test. */
class FileProviderContractTest extends ProviderContract {
  @TempDir Path root;

  @Override
  protected Transport newTransport() {
    return new FileProvider(root, Clock.systemUTC(), new ExecutorScheduler());
  }
}
