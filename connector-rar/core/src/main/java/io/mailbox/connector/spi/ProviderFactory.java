package io.mailbox.connector.spi;

import java.util.List;

/**
 * How the adapter finds and builds a provider: one implementation per transport, listed in {@code
 * META-INF/services/io.mailbox.connector.spi.ProviderFactory} of its jar (found with {@link
 * java.util.ServiceLoader}). The adapter knows no provider by name: it starts the schemes named in
 * {@code enabledProviders}, hands each factory its settings, and refuses an unknown scheme ({@code
 * MBX-1003}) or a bad value ({@code MBX-1008}) at start.
 *
 * @param <C> the provider's checked configuration
 */
public interface ProviderFactory<C> {

  /** The scheme of the addresses the provider serves, for example {@code amqp}. */
  String scheme();

  /** Every setting the provider reads, each declared once here. */
  List<Setting> settings();

  /**
   * Reads and checks the settings; called at the adapter's start for every factory found, enabled
   * or not, so that a bad value is reported before anything runs.
   *
   * @throws io.mailbox.connector.api.MailboxException {@code MBX-1008} naming the property
   */
  C configure(ProviderSettings settings);

  /** Builds the (unstarted) transport on the adapter's scheduler; the kernel wraps it. */
  Transport create(C configuration, Scheduler scheduler);
}
