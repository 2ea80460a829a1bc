package io.mailbox.connector.api;

import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * What a {@code recover} reclaimed. {@code supported = false} means the provider has no leases to
 * reclaim (a broker owns redelivery): do not read {@code reclaimed = 0} as "all clear" then.
 *
 * @param reclaimed expired leases put back into their queues
 * @param supported whether the provider(s) could recover at all
 * @param byAddress reclaimed counts per address (only addresses with something reclaimed)
 * @param unsupportedProviders schemes that cannot recover
 */
public record RecoverResult(
    long reclaimed,
    boolean supported,
    Map<MailAddress, Long> byAddress,
    List<String> unsupportedProviders)
    implements Serializable {

  public RecoverResult {
    byAddress = Map.copyOf(byAddress);
    unsupportedProviders = List.copyOf(unsupportedProviders);
  }

  /** The answer of a provider without leases. */
  public static RecoverResult unsupported(String scheme) {
    return new RecoverResult(0, false, Map.of(), List.of(scheme));
  }
}
