/**
 * The {@code amqp:} provider: each address is a durable RabbitMQ quorum queue; posts are persistent
 * and confirmed; consumers use manual acks and a prefetch window. See docs/providers.md.
 */
package io.mailbox.connector.provider.amqp;
