/**
 * The resource adapter: starts the kernel with the server and hands it to the inbound and outbound
 * sides.
 */
package io.mailbox.connector.jca;
