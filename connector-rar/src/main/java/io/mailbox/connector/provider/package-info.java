/**
 * Transports, one package each; {@link io.mailbox.connector.spi.MessageJson} is the text form they
 * share.
 */
package io.mailbox.connector.provider;
