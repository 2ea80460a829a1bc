package io.mailbox.connector.api;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Refuses new requests once the server stops: 503 with {@code Retry-After} and a JSON body ({@code
 * MBX-5003}), so a client knows to come back rather than reading a 404 or 500 as its own mistake.
 * Requests already inside the application finish (the stop drains them). Register it in a war's
 * {@code web.xml} for {@code /*}, first in the chain; the product's wars do.
 */
public class ShutdownFilter implements Filter {
  /** Seconds a client should wait: a restart of the quick start takes about 20. */
  public static final int RETRY_AFTER_SECONDS = 5;

  static final String BODY =
      "{\"code\":\""
          + ErrorCode.SERVER_STOPPING.code()
          + "\",\"message\":\"The server is stopping: retry after "
          + RETRY_AFTER_SECONDS
          + " seconds.\"}";

  @Override
  public void init(FilterConfig config) {
    ServerShutdown.watch();
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (ServerShutdown.inProgress() && response instanceof HttpServletResponse http) {
      refuse(http);
      return;
    }
    chain.doFilter(request, response);
  }

  /** Writes the 503 answer. */
  public static void refuse(HttpServletResponse response) throws IOException {
    response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
    response.setHeader("Retry-After", Integer.toString(RETRY_AFTER_SECONDS));
    response.setHeader("Connection", "close");
    response.setHeader("Cache-Control", "no-store");
    response.setContentType("application/json");
    response.setCharacterEncoding(StandardCharsets.UTF_8.name());
    response.getWriter().write(BODY);
  }
}
