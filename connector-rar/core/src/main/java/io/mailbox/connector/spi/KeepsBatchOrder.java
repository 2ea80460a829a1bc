package io.mailbox.connector.spi;

/**
 * A transport that stores the copies of one {@link Transport#sendAll} call to one address in the
 * order given, and stores a copy only if every earlier copy of that call to that address was stored
 * too: a call fails as a whole, or from some copy on, never in the middle with later copies kept.
 * The outbox relay then sends several rows of one ordering key in one call instead of one call per
 * row (docs/outbox.md, "Ordering"). Declared as the capability {@code ordered-batch}. A marker.
 */
public interface KeepsBatchOrder extends Transport {}
