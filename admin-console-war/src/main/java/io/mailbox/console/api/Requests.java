package io.mailbox.console.api;

import io.mailbox.connector.api.MailboxException;
import jakarta.json.Json;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Request checks shared by the resources, and how refusals look on the wire. */
final class Requests {
  static final int MAX_LIMIT = 1000;

  private Requests() {}

  static String required(String name, String value) {
    if (value == null || value.isBlank()) {
      throw new BadRequest("MBX-1008", "query parameter '" + name + "' is required");
    }
    return value.strip();
  }

  static int limit(int limit) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new BadRequest("MBX-1008", "limit must be 1 to " + MAX_LIMIT);
    }
    return limit;
  }

  /**
   * The strings of the array {@code name} in a request body, 1 to {@link #MAX_LIMIT} of them;
   * anything else is refused with {@code expected} (what the body should look like).
   */
  static java.util.List<String> strings(
      jakarta.json.JsonObject request, String name, String what, String expected) {
    if (request == null || !(request.get(name) instanceof jakarta.json.JsonArray array)) {
      throw new BadRequest("MBX-1008", "expected " + expected);
    }
    java.util.List<String> values = new java.util.ArrayList<>(array.size());
    for (jakarta.json.JsonValue value : array) {
      if (!(value instanceof jakarta.json.JsonString text)) {
        throw new BadRequest("MBX-1008", name + " must be strings");
      }
      values.add(text.getString());
    }
    if (values.isEmpty() || values.size() > MAX_LIMIT) {
      throw new BadRequest("MBX-1008", name + " must name 1 to " + MAX_LIMIT + " " + what);
    }
    return values;
  }

  /** Who is asking (the container authenticated them before any resource ran). */
  static String actor(SecurityContext caller) {
    return caller.getUserPrincipal() == null ? "anonymous" : caller.getUserPrincipal().getName();
  }

  /** 400 with a stable code, before anything changed. */
  static final class BadRequest extends WebApplicationException {
    private static final long serialVersionUID = 1L;

    BadRequest(String code, String message) {
      super(error(Response.Status.BAD_REQUEST, code, message));
    }
  }

  static Response error(Response.Status status, String code, String message) {
    return Response.status(status)
        .type(MediaType.APPLICATION_JSON)
        .entity(Json.createObjectBuilder().add("code", code).add("message", message).build())
        .build();
  }

  /**
   * The product's refusals (a malformed address, an unsupported operation) as 400 with their code;
   * EJB wrapping is looked through.
   */
  @Provider
  public static final class MailboxExceptionMapper
      implements ExceptionMapper<jakarta.ejb.EJBException> {
    @Override
    public Response toResponse(jakarta.ejb.EJBException exception) {
      for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
        if (cause instanceof MailboxException refused) {
          return error(
              Response.Status.BAD_REQUEST,
              refused.errorCode().code(),
              refused.getMessage().substring(refused.errorCode().code().length()).strip());
        }
      }
      return error(
          Response.Status.INTERNAL_SERVER_ERROR, "MBX-5000", "the operation failed; see the log");
    }
  }
}
