/**
 * Delivers mailbox messages to MDBs implementing {@link io.mailbox.connector.api.MailboxListener},
 * on WorkManager threads.
 */
package io.mailbox.connector.jca.inbound;
