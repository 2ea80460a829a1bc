/** The {@code nats:} provider: addresses as subjects of one NATS JetStream stream. */
package io.mailbox.connector.provider.nats;
