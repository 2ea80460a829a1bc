package io.mailbox.connector.spi;

import io.mailbox.connector.api.LocatedCopy;
import java.util.List;

/** Capability {@code locate}: every copy of a sender's message id, wherever it is. */
public interface Locating extends Transport {

  /** Every copy of {@code messageId}, read-only, with the key to act on it. */
  List<LocatedCopy> locateCopies(String messageId);
}
