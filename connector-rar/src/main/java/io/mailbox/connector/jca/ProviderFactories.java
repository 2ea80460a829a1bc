package io.mailbox.connector.jca;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.ProviderFactory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
    for (ProviderFactory factory :
        ServiceLoader.load(ProviderFactory.class, ProviderFactories.class.getClassLoader())) {
      found.add(factory);
    }
    return checked(found);
  }

  /** The factories sorted by scheme; two for one scheme are refused. */
  static List<ProviderFactory<?>> checked(List<ProviderFactory<?>> factories) {
    Map<String, ProviderFactory<?>> byScheme = new HashMap<>();
    for (ProviderFactory<?> factory : factories) {
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
