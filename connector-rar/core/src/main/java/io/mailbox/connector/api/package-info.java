/** What applications compile against: addresses, messages, the connection factory and errors. */
package io.mailbox.connector.api;
