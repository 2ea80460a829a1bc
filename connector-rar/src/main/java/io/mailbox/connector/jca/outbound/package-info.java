/** Pooled, transaction-enlisted connections to the mailbox kernel, handed out by the server. */
package io.mailbox.connector.jca.outbound;
