package io.mailbox.connector.api;

import java.io.Serializable;
import java.util.Objects;

/**
 * One registered provider as a {@link Snapshot} saw it.
 *
 * @param scheme the provider's scheme ({@code jdbc}, {@code amqp}, ...)
 * @param started whether the provider is started (a stopped one takes no posts)
 * @param reachability whether its broker or store answered (see {@link Reachability})
 */
public record ProviderState(String scheme, boolean started, Reachability reachability)
    implements Serializable {
  public ProviderState {
    Objects.requireNonNull(scheme, "scheme");
    Objects.requireNonNull(reachability, "reachability");
  }

  /** Started and not known to be unreachable: it can take and deliver messages. */
  public boolean serving() {
    return started && reachability != Reachability.DOWN;
  }
}
