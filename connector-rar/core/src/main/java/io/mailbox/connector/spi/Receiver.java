package io.mailbox.connector.spi;

import io.mailbox.connector.api.MailAddress;

/**
 * A subscription as a transport sees it: something to route copies of {@link #address()} to, and to
 * hand back to {@link TransportContext#dispatch}. The kernel creates them; a transport never does.
 */
public interface Receiver {

  /** Identifies the subscription; a delivery id is this id plus the copy key. */
  String id();

  MailAddress address();

  /** False once unsubscribed: a transport stops routing to it. */
  boolean isActive();
}
