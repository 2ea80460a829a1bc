package io.mailbox.connector.spi;

import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import java.util.Set;

/**
 * Capability {@code disposition:<name>}: dispositions of the transport's own (a broker's reject),
 * beyond handled, unhandled and discard.
 */
public interface CustomDispositions extends Transport {

  /** The names of the transport's own dispositions, without the {@code disposition:} prefix. */
  Set<String> dispositionNames();

  /** Carries out one of them on a copy whose lease was just released. */
  void applyDisposition(MailAddress address, MailMessage copy, Disposition disposition);
}
