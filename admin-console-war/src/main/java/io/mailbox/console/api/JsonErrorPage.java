package io.mailbox.console.api;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The body of the errors the container answers itself, before any resource runs (web.xml {@code
 * <error-page>}): 401 and 403 from the security constraints and the sign-in mechanism, 404, 405,
 * 413, 415, 500. The same JSON and codes as {@link ApiExceptionMapper}; the container keeps the
 * status and headers it set (such as the basic challenge).
 */
@WebServlet(name = "json-error-page", urlPatterns = JsonErrorPage.PATH)
public class JsonErrorPage extends HttpServlet {
  private static final long serialVersionUID = 1L;

  /** Where web.xml sends every error. */
  static final String PATH = "/mailbox-error";

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    Object status = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
    ApiRefusal refusal = ApiExceptionMapper.forStatus(status instanceof Integer code ? code : 404);
    if (!response.isCommitted()) {
      response.setStatus(refusal.status());
      response.setContentType("application/json");
      response.setCharacterEncoding(StandardCharsets.UTF_8.name());
      response
          .getWriter()
          .write(
              jakarta.json.Json.createObjectBuilder()
                  .add("code", refusal.code())
                  .add("message", refusal.getMessage())
                  .build()
                  .toString());
    }
  }
}
