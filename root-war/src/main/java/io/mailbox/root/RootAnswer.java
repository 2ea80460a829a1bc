package io.mailbox.root;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the root context answers for a request no deployed application took: 503 with Retry-After
 * when the request is for one of our applications (it is starting or stopping) or the server is
 * shutting down, else 404. Plain Java so the rule is tested without a server.
 *
 * @param status the HTTP status
 * @param retryAfterSeconds the Retry-After header's value, or 0 for none
 * @param body the JSON error body: a stable code and a message that never echoes the path
 */
public record RootAnswer(int status, int retryAfterSeconds, String body) {
  /** Long enough not to hammer a server that restarts; short against its ~20 s start. */
  static final int RETRY_AFTER_SECONDS = 5;

  static final RootAnswer UNAVAILABLE =
      new RootAnswer(
          503,
          RETRY_AFTER_SECONDS,
          "{\"code\":\"MBX-5003\",\"message\":\"The application is starting or stopping: retry"
              + " after "
              + RETRY_AFTER_SECONDS
              + " seconds.\"}");

  static final RootAnswer NOT_FOUND =
      new RootAnswer(404, 0, "{\"code\":\"MBX-4004\",\"message\":\"No such endpoint.\"}");

  /** The context roots named in {@code names}, separated by white space or commas. */
  static Set<String> applications(String names) {
    if (names == null) {
      return Set.of();
    }
    return Arrays.stream(names.split("[\\s,]+"))
        .map(String::strip)
        .filter(name -> !name.isEmpty())
        .collect(Collectors.toUnmodifiableSet());
  }

  /**
   * The answer for a request to {@code path} (the request URI without query), given the known
   * application context roots and whether the server is shutting down.
   */
  static RootAnswer forPath(String path, Set<String> applications, boolean shuttingDown) {
    if (shuttingDown) {
      return UNAVAILABLE;
    }
    String rest = path == null ? "" : path.startsWith("/") ? path.substring(1) : path;
    int slash = rest.indexOf('/');
    String first = slash < 0 ? rest : rest.substring(0, slash);
    return applications.contains(first) ? UNAVAILABLE : NOT_FOUND;
  }
}
