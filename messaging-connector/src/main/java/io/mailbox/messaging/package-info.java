/**
 * The MicroProfile Reactive Messaging connector {@code mailbox}: channels read from and write to
 * mailbox addresses through the resource adapter's connection factory. Only the MicroProfile SPI.
 */
package io.mailbox.messaging;
