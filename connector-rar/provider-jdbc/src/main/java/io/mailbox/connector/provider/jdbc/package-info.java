/** The {@code jdbc:} transport: a durable queue in a table of the application's own database. */
package io.mailbox.connector.provider.jdbc;
