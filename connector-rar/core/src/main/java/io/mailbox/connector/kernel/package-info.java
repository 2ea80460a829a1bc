/** The mailbox kernel: routes each operation to the provider of the address's scheme. */
package io.mailbox.connector.kernel;
