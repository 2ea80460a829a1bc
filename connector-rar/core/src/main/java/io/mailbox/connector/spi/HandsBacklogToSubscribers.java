package io.mailbox.connector.spi;

/**
 * Capability {@code subscribers-take-backlog}: a subscriber is also handed what was queued while
 * its address had none (a durable queue whose consumer starts after the posts, or after a restart).
 * A marker: the transport's {@link Transport#openSubscription} does it.
 */
public interface HandsBacklogToSubscribers extends Transport {}
