/** The {@code redis:} provider: addresses as Redis Streams read by consumer groups. */
package io.mailbox.connector.provider.redis;
