/**
 * What a transport implements: extend {@link io.mailbox.connector.spi.MailboxProvider}, which owns
 * the send boundary, subscription teardown and the mapping of consumer outcomes to dispositions.
 */
package io.mailbox.connector.spi;
