/** The in-process {@code mem:} transport: queues and subscribers held in this JVM's memory. */
package io.mailbox.connector.provider.mem;
