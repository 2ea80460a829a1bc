package io.mailbox.connector.spi;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import java.util.List;

/**
 * Capability {@code parked}: the records {@link Transport#park} kept can be listed and purged. They
 * are counted in the address's status and never handed out.
 */
public interface ParkedRecords extends Transport {

  /** Parked records of {@code address}, oldest first. */
  List<MailMessage> parkedCopies(MailAddress address, int limit);

  /**
   * Removes parked records (all when {@code key} is null); returns how many. A key is only given
   * when {@link #removesOneParkedRecord()}.
   */
  int removeParked(MailAddress address, String key);

  /**
   * Whether one record can be removed by its key (capability {@code parked-remove}); false for a
   * log, which can only drop them all: the kernel then refuses a key with {@code MBX-1007}.
   */
  default boolean removesOneParkedRecord() {
    return true;
  }
}
