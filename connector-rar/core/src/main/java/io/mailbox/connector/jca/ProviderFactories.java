package io.mailbox.connector.jca;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.ProviderFactory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * The providers installed with the adapter: every {@link ProviderFactory} listed in a {@code
 * META-INF/services} file on the adapter's class path — the ones the rar ships, and a third party's
 * jar placed beside them (in the rar, or in the EAR's {@code lib/}).
 */
final class ProviderFactories {
  private ProviderFactories() {}

  /**
   * Every factory found, by scheme.
   *
   * @throws MailboxException {@code MBX-1005} when two factories claim one scheme
   */
  @SuppressWarnings("rawtypes")
  static List<ProviderFactory<?>> discover() {
    List<ProviderFactory<?>> found = new ArrayList<>();
    try {
      for (ProviderFactory factory :
          ServiceLoader.load(ProviderFactory.class, ProviderFactories.class.getClassLoader())) {
        found.add(factory);
      }
    } catch (ServiceConfigurationError e) {
      // A broken provider jar (a listed class missing or failing to load): a coded start failure.
      throw new MailboxException(
          ErrorCode.NOT_STARTED, "A provider on the adapter's class path cannot be loaded: " + e);
    }
    return checked(found);
  }

  /** The factories sorted by scheme; two for one scheme are refused. */
  static List<ProviderFactory<?>> checked(List<ProviderFactory<?>> factories) {
    Map<String, ProviderFactory<?>> byScheme = new HashMap<>();
    for (ProviderFactory<?> factory : factories) {
      if (!factory.scheme().equals(factory.scheme().toLowerCase(java.util.Locale.ROOT))) {
        // Addresses' schemes are lower case, and enabledProviders is read in lower case.
        throw new MailboxException(
            ErrorCode.INVALID_POLICY,
            factory.getClass().getName()
                + " declares the scheme '"
                + factory.scheme()
                + "': a scheme is lower case");
      }
      ProviderFactory<?> other = byScheme.putIfAbsent(factory.scheme(), factory);
      if (other != null) {
        throw new MailboxException(
            ErrorCode.DUPLICATE_PROVIDER,
            "Two providers claim the scheme '"
                + factory.scheme()
                + "': "
                + other.getClass().getName()
                + " and "
                + factory.getClass().getName());
      }
    }
    return factories.stream()
        .sorted(Comparator.comparing(ProviderFactory::scheme))
        .<ProviderFactory<?>>map(f -> f)
        .toList();
  }
}
