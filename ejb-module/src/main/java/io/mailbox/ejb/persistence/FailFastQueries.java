package io.mailbox.ejb.persistence;

import org.eclipse.persistence.config.SessionCustomizer;
import org.eclipse.persistence.sessions.Session;

/**
 * EclipseLink retries a read query that lost its connection, 3 times with pauses by default: with
 * the database away (the outage test), {@code /health/ready} took 20 s to say DOWN, longer than any
 * probe waits, and every read hung as long. Here a query fails at once; the callers already retry
 * in their own way (the relay's backoff, redelivery, a 503 with Retry-After). Named by {@code
 * eclipselink.session.customizer} in the persistence units; other JPA providers (Hibernate on
 * WildFly) never load it.
 */
public class FailFastQueries implements SessionCustomizer {
  @Override
  public void customize(Session session) {
    session.getLogin().setQueryRetryAttemptCount(0);
  }
}
