package io.mailbox.examples.orders.web;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.HandlerNotReady;
import io.mailbox.connector.api.ServerShutdown;
import io.mailbox.connector.api.ShutdownFilter;
import jakarta.ejb.EJBException;
import jakarta.json.Json;
import jakarta.resource.spi.ResourceAllocationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A failed bean call as the example's clients should see it. While the server stops, the EJB
 * container refuses calls ("Attempt to invoke when container is in STOPPED" on Payara), or a call
 * fails on a part already stopped; or the database is out of reach: 503 with Retry-After (come
 * back), not a 500 (up to 23,770 of them in one crash-test SIGTERM round before this). A bean that
 * failed otherwise is a 500 with a JSON body that names no internals.
 */
@Provider
public class EjbFailureMapper implements ExceptionMapper<EJBException> {
  private static final Logger LOG = Logger.getLogger(EjbFailureMapper.class.getName());

  @Override
  public Response toResponse(EJBException failure) {
    // Nothing was written: a failure in the commit itself (outcome unknown) is answered by
    // OrderResource, which knows how far the order got and whether the client sent a key.
    if (HandlerNotReady.is(failure)
        || ServerShutdown.inProgress()
        || databaseUnreachable(failure)) {
      return json(
              Response.Status.SERVICE_UNAVAILABLE,
              ErrorCode.SERVER_STOPPING.code(),
              "The application is starting or stopping: retry after "
                  + ShutdownFilter.RETRY_AFTER_SECONDS
                  + " s.")
          .header("Retry-After", ShutdownFilter.RETRY_AFTER_SECONDS)
          .build();
    }
    LOG.log(Level.WARNING, "A bean call failed", failure);
    return json(
            Response.Status.INTERNAL_SERVER_ERROR, ErrorCode.INTERNAL.code(), "The server failed.")
        .build();
  }

  /**
   * Whether the database was out of reach (connection refused or lost, server shutting down, no
   * usable pooled connection): transient, so 503 like a stop. SQLSTATE class 08 is "connection
   * exception", 57P "operator intervention" (PostgreSQL's admin shutdown); the container's pool
   * says it with a {@link ResourceAllocationException} (under an SQLException with no state).
   */
  static boolean databaseUnreachable(Throwable failure) {
    Throwable current = failure;
    for (int depth = 0; current != null && depth < 16; depth++) {
      if (current instanceof SQLTransientException
          || current instanceof SQLRecoverableException
          || current instanceof ResourceAllocationException) {
        return true;
      }
      if (current instanceof SQLException sql
          && sql.getSQLState() != null
          && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P"))) {
        return true;
      }
      if (current instanceof IllegalStateException && thrownByTheConnectionPool(current)) {
        return true;
      }
      current = current.getCause();
    }
    return false;
  }

  /**
   * Payara's connection pool, failing every connection after the database went away, can race with
   * itself rescheduling its resizer and throw {@code IllegalStateException("Task already scheduled
   * or cancelled")} to the caller (measured once in PostgresOutageIT: the only 500 among 33 answers
   * in the outage). It is the pool's reaction to a lost database: transient too.
   */
  private static boolean thrownByTheConnectionPool(Throwable failure) {
    for (StackTraceElement frame : failure.getStackTrace()) {
      if (frame.getClassName().startsWith("com.sun.enterprise.resource.pool.")) {
        return true;
      }
    }
    return false;
  }

  private static Response.ResponseBuilder json(
      Response.Status status, String code, String message) {
    return Response.status(status)
        .type(MediaType.APPLICATION_JSON_TYPE)
        .entity(Json.createObjectBuilder().add("code", code).add("message", message).build());
  }
}
