package io.mailbox.connector.spi;

import io.mailbox.connector.api.AddressStatus;
import java.util.List;

/** Capability {@code enumerate}: the transport can list every address it knows (the snapshot). */
public interface Enumerating extends Transport {

  /** The status of every address the transport knows. */
  List<AddressStatus> enumerate();
}
