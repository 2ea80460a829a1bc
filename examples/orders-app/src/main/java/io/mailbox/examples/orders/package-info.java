/**
 * A tiny shop: placing an order (REST) announces it in the same transaction on a channel (billing's
 * pipeline: processor then sink) and to shipping's MDB. Start here to see messages move.
 */
package io.mailbox.examples.orders;
