package io.mailbox.connector.spi;

/**
 * A transport that bounds its own publish: a post its broker or store does not confirm within the
 * provider's publish bound fails with {@link PublishBound#exceeded} (the conformance kit's {@code
 * unanswering} case proves it). Every shipped provider is one. A transport without this marker is
 * bounded by the kernel instead, which runs each of its sends on a thread of its own and gives up
 * waiting after the adapter's {@code publishTimeoutMillis}. A marker.
 */
public interface BoundsItsPublish extends Transport {}
