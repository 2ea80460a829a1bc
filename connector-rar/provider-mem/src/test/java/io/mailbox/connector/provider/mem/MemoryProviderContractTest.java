package io.mailbox.connector.provider.mem;

import io.mailbox.connector.spi.Transport;
import io.mailbox.connector.tck.ProviderContract;

/** {@code mem:} keeps the provider contract. */
class MemoryProviderContractTest extends ProviderContract {
  @Override
  protected Transport newTransport() {
    return MemoryProvider.isolated();
  }
}
