/**
 * What a transport implements: {@link io.mailbox.connector.spi.Transport} (store, hand out, take
 * back, report) plus the capability interfaces it can honour, found through a {@link
 * io.mailbox.connector.spi.ProviderFactory}. Depends on {@code api} only; the kernel wraps a
 * transport in its rules ({@code kernel.MailboxProvider}).
 */
package io.mailbox.connector.spi;
