package io.mailbox.connector.kernel;

import java.io.Serializable;
import java.util.Optional;

/**
 * Per-subscription settings. A retry policy here overrides the provider's for this subscription
 * only (an MDB or channel that wants its own redelivery budget).
 *
 * @param retryPolicy the retry policy of this subscription, or {@code null} for the provider's
 */
public record SubscribeOptions(RetryPolicy retryPolicy) implements Serializable {

  /** The provider's defaults. */
  public static SubscribeOptions defaults() {
    return new SubscribeOptions(null);
  }

  public static SubscribeOptions withRetry(RetryPolicy policy) {
    return new SubscribeOptions(policy);
  }

  public Optional<RetryPolicy> retry() {
    return Optional.ofNullable(retryPolicy);
  }
}
