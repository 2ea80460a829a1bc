package io.mailbox.console.security;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;

/**
 * Puts the browser security headers on every response of the console and its admin API, error pages
 * included (the {@code ERROR} dispatch: a 401 the sign-in mechanism answers never reaches the
 * filter chain of the request itself).
 */
@WebFilter(
    filterName = "security-headers",
    urlPatterns = "/*",
    dispatcherTypes = {DispatcherType.REQUEST, DispatcherType.ERROR},
    asyncSupported = true)
public class SecurityHeadersFilter extends HttpFilter {
  private static final long serialVersionUID = 1L;

  /**
   * What Vaadin Flow needs and nothing more from elsewhere: its bootstrap page has inline scripts
   * and its client evaluates the server's JavaScript calls ({@code 'unsafe-inline'}, {@code
   * 'unsafe-eval'}, as Vaadin's security guide states); everything is loaded from the console's own
   * origin; no page may frame it.
   */
  static final String CONTENT_SECURITY_POLICY =
      "default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval';"
          + " style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:;"
          + " connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self';"
          + " frame-ancestors 'none'";

  /** Every header this filter sets, with its value. */
  static final Map<String, String> HEADERS =
      Map.of(
          "Content-Security-Policy", CONTENT_SECURITY_POLICY,
          "X-Content-Type-Options", "nosniff",
          "Referrer-Policy", "no-referrer",
          "X-Frame-Options", "DENY");

  @Override
  protected void doFilter(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    HEADERS.forEach(response::setHeader);
    chain.doFilter(request, response);
  }
}
