package io.mailbox.examples.provider;

import io.mailbox.connector.spi.Transport;
import io.mailbox.connector.tck.ProviderContract;

/** {@code tiny:} keeps the contract: the whole conformance kit, from its published jar. */
class TinyProviderConformanceTest extends ProviderContract {
  @Override
  protected Transport newTransport() {
    return new TinyProvider();
  }
}
