package io.mailbox.console.api;

import io.mailbox.connector.api.ErrorCode;

/**
 * A request the admin API refuses before anything changed: an HTTP status, a stable code and a
 * message that says what was wrong and what to do. The message never repeats the refused value (it
 * may be a secret, a payload, or text crafted for the log). Carries no stack trace: a refusal is an
 * answer, not a fault.
 */
public final class ApiRefusal extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** A parameter or a body field is missing, of the wrong type or out of range. */
  public static final String INVALID_REQUEST = ErrorCode.INVALID_REQUEST.code();

  /** The body is not JSON, or not the JSON object the endpoint reads. */
  public static final String MALFORMED_BODY = ErrorCode.MALFORMED_BODY.code();

  /** No credentials, or wrong ones. */
  public static final String NOT_SIGNED_IN = ErrorCode.NOT_SIGNED_IN.code();

  /** Signed in, but the role does not allow this. */
  public static final String FORBIDDEN = ErrorCode.FORBIDDEN.code();

  /** No such endpoint. */
  public static final String NOT_FOUND = ErrorCode.NOT_FOUND.code();

  /** The endpoint exists but not with this HTTP method. */
  public static final String METHOD_NOT_ALLOWED = ErrorCode.METHOD_NOT_ALLOWED.code();

  /** The endpoint cannot answer in a media type the caller accepts. */
  public static final String NOT_ACCEPTABLE = ErrorCode.NOT_ACCEPTABLE.code();

  /** The body is larger than {@code mailbox.api.max-body-bytes}. */
  public static final String BODY_TOO_LARGE = ErrorCode.BODY_TOO_LARGE.code();

  /** The body is not {@code application/json}. */
  public static final String UNSUPPORTED_MEDIA_TYPE = ErrorCode.UNSUPPORTED_MEDIA_TYPE.code();

  /** Too many refused sign-ins for this account or client address; wait and try again. */
  public static final String TOO_MANY_SIGN_INS = ErrorCode.TOO_MANY_SIGN_INS.code();

  /** The server failed; nothing about the request was wrong. The log has the details. */
  public static final String INTERNAL = ErrorCode.INTERNAL.code();

  private final int status;
  private final String code;

  public ApiRefusal(int status, String code, String message) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
  }

  /** 400 with {@link #INVALID_REQUEST}. */
  static ApiRefusal invalid(String message) {
    return new ApiRefusal(400, INVALID_REQUEST, message);
  }

  public int status() {
    return status;
  }

  public String code() {
    return code;
  }
}
