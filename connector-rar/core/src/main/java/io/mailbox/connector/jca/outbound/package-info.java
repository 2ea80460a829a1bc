/**
 * Pooled, transaction-enlisted connections to the mailbox kernel, handed out by the server; a
 * transaction's posts are written to the adapter's prepare log when its branch votes yes.
 */
package io.mailbox.connector.jca.outbound;
