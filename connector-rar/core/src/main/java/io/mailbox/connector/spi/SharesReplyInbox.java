package io.mailbox.connector.spi;

/**
 * A transport whose addresses are costly (a Kafka topic each): request/reply then uses one shared
 * reply inbox per user@host ({@code kernel.RequestReply.SHARED_INBOX}) instead of one per process,
 * and the transport reads that address in a consumer group of each instance's own, so every
 * instance sees every reply and keeps those it waits for (the kernel drops the others). A marker.
 */
public interface SharesReplyInbox extends Transport {}
