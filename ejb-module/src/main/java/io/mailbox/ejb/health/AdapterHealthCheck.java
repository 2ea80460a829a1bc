package io.mailbox.ejb.health;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.connector.api.Snapshot;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready when the resource adapter hands out a connection and its providers are started. A degraded
 * snapshot (a provider that cannot list its addresses) is still ready, and says so in the data.
 */
@Readiness
@ApplicationScoped
public class AdapterHealthCheck implements HealthCheck {
  static final String NAME = "mailbox-adapter";

  @Inject private MailboxConnectionFactory connections;

  @Override
  public HealthCheckResponse call() {
    try (MailboxConnection connection = connections.getConnection()) {
      return describe(connection.snapshot());
    } catch (RuntimeException e) {
      // The code and reason only: the check's output is public.
      return new HealthCheckResponse(
          NAME, Status.DOWN, Optional.of(Map.of("error", String.valueOf(e.getMessage()))));
    }
  }

  // Built with the public constructor rather than named(): no provider lookup, so it is
  // unit-testable.
  static HealthCheckResponse describe(Snapshot snapshot) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("state", snapshot.state().label());
    data.put("addresses", (long) snapshot.addressCount());
    data.put("unread", snapshot.unreadCount());
    data.put("inFlight", snapshot.inFlightCount());
    if (!snapshot.unsupportedProviders().isEmpty()) {
      data.put("unsupportedProviders", String.join(",", snapshot.unsupportedProviders()));
    }
    Status status = snapshot.state() == AddressState.OFFLINE ? Status.DOWN : Status.UP;
    return new HealthCheckResponse(NAME, status, Optional.of(data));
  }
}
