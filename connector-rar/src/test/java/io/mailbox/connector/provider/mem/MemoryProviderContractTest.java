package io.mailbox.connector.provider.mem;

import io.mailbox.connector.spi.MailboxProvider;
import io.mailbox.connector.tck.ProviderContract;

/** {@code mem:} keeps the provider contract. */
class MemoryProviderContractTest extends ProviderContract {
  @Override
  protected MailboxProvider newProvider() {
    return MemoryProvider.isolated();
  }
}
