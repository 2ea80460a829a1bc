package io.mailbox.console.api;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one exception mapper of the admin API: every refusal and every failure leaves as {@code
 * {"code": "MBX-…", "message": "…"}} with its HTTP status. A refusal is logged as one line (code,
 * method, path, message; control characters escaped, the refused value never included); only a
 * server failure (5xx) is logged with its stack trace.
 */
@Provider
public final class ApiExceptionMapper implements ExceptionMapper<Throwable> {
  private static final Logger LOG = Logger.getLogger(ApiExceptionMapper.class.getName());

  /** Causes looked through for a refusal (EJB and JSON wrapping is a few levels deep at most). */
  private static final int MAX_CAUSES = 16;

  @Context UriInfo uri;
  @Context Request request;

  @Override
  public Response toResponse(Throwable thrown) {
    ApiRefusal refusal = refusalFor(thrown);
    String where =
        (request == null ? "?" : request.getMethod())
            + " "
            + (uri == null ? "?" : uri.getRequestUri().getRawPath());
    if (refusal.status() >= 500) {
      LOG.log(Level.SEVERE, logLine(refusal, where), thrown);
    } else {
      LOG.info(logLine(refusal, where));
    }
    return response(refusal);
  }

  /** The response for a refusal: its status and the JSON error body. */
  static Response response(ApiRefusal refusal) {
    return Response.status(refusal.status())
        .type(MediaType.APPLICATION_JSON)
        .entity(body(refusal))
        .build();
  }

  /** The JSON error body of a refusal: its code and message, nothing the caller sent. */
  static JsonObject body(ApiRefusal refusal) {
    return Json.createObjectBuilder()
        .add("code", refusal.code())
        .add("message", refusal.getMessage())
        .build();
  }

  /** The one log line of a refusal, printable whatever the caller sent. */
  static String logLine(ApiRefusal refusal, String where) {
    return printable(
        refusal.code()
            + (refusal.status() >= 500 ? " failed " : " refused ")
            + where
            + " ("
            + refusal.status()
            + "): "
            + refusal.getMessage());
  }

  /**
   * What the caller is told for anything thrown while serving a request: a refusal anywhere in the
   * cause chain as it is, a kernel refusal with its code, unreadable JSON as {@link
   * ApiRefusal#MALFORMED_BODY}, the JAX-RS runtime's own refusals (no such path, wrong method,
   * wrong media type) by their status, anything else as a server failure.
   */
  static ApiRefusal refusalFor(Throwable thrown) {
    Throwable cause = thrown;
    for (int depth = 0; cause != null && depth < MAX_CAUSES; depth++, cause = cause.getCause()) {
      if (cause instanceof ApiRefusal refusal) {
        return refusal;
      }
      if (cause instanceof MailboxException refused) {
        return kernelRefusal(refused.errorCode());
      }
      if (cause instanceof JsonException) {
        return new ApiRefusal(
            400, ApiRefusal.MALFORMED_BODY, "the body is not well-formed JSON; send a JSON object");
      }
    }
    if (thrown instanceof WebApplicationException web && web.getResponse() != null) {
      return forStatus(web.getResponse().getStatus());
    }
    return new ApiRefusal(500, ApiRefusal.INTERNAL, "the operation failed; see the server log");
  }

  /** The refusal for an HTTP status the runtime or the container chose. */
  static ApiRefusal forStatus(int status) {
    return switch (status) {
      case 400 -> ApiRefusal.invalid("the request is malformed; see docs/admin-api.md");
      case 401 ->
          new ApiRefusal(
              401, ApiRefusal.NOT_SIGNED_IN, "sign in with HTTP basic (a viewer or an operator)");
      case 403 ->
          new ApiRefusal(
              403,
              ApiRefusal.FORBIDDEN,
              "this needs the mailbox-operator role; nothing was changed");
      case 404 ->
          new ApiRefusal(404, ApiRefusal.NOT_FOUND, "no such endpoint; see docs/admin-api.md");
      case 405 ->
          new ApiRefusal(
              405, ApiRefusal.METHOD_NOT_ALLOWED, "this endpoint does not take this HTTP method");
      case 406 ->
          new ApiRefusal(
              406, ApiRefusal.NOT_ACCEPTABLE, "the admin API answers application/json only");
      case 413 ->
          new ApiRefusal(
              413, ApiRefusal.BODY_TOO_LARGE, "the body is larger than the admin API accepts");
      case 415 ->
          new ApiRefusal(
              415, ApiRefusal.UNSUPPORTED_MEDIA_TYPE, "send the body as application/json");
      case 429 ->
          new ApiRefusal(
              429, ApiRefusal.TOO_MANY_SIGN_INS, "too many refused sign-ins; wait and try again");
      default ->
          status >= 400 && status < 500
              ? new ApiRefusal(status, ApiRefusal.INVALID_REQUEST, "the request was refused")
              : new ApiRefusal(
                  500, ApiRefusal.INTERNAL, "the operation failed; see the server log");
    };
  }

  /**
   * A kernel refusal with its code and what the code means; the kernel's own message is not used,
   * because it quotes the refused value.
   */
  static ApiRefusal kernelRefusal(ErrorCode code) {
    String meaning =
        switch (code) {
          case MALFORMED_ADDRESS -> "the address is not scheme:user@host[/path]";
          case ADDRESS_HAS_QUERY_OR_FRAGMENT ->
              "the address has a query or fragment; put the partition in the path";
          case UNKNOWN_SCHEME -> "no provider is registered for the address's scheme";
          case INVALID_MESSAGE -> "the message lacks something a post needs";
          case INVALID_FETCH_OPTIONS -> "the fetch options are out of range";
          case UNSUPPORTED_CAPABILITY ->
              "the address's provider does not support this operation; nothing was changed";
          case INVALID_POLICY -> "a setting of the request is out of range";
          case NOT_STARTED, CONNECTION_CLOSED, CONNECTION_UNAVAILABLE, PUBLISH_TIMEOUT ->
              "the mailbox adapter is not available; try again later";
          default -> "the request was refused";
        };
    int status =
        switch (code) {
          case NOT_STARTED, CONNECTION_CLOSED, CONNECTION_UNAVAILABLE, PUBLISH_TIMEOUT -> 503;
          default -> 400;
        };
    return new ApiRefusal(status, code.code(), meaning);
  }

  /**
   * The text with every control character (CR, LF, tab, ESC, the Unicode line separators...)
   * written as {@code \\uXXXX}, so one refusal is always one log line.
   */
  static String printable(String text) {
    return io.mailbox.console.security.ControlCharacters.escape(text);
  }
}
