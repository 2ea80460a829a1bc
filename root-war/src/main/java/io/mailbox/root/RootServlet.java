package io.mailbox.root;

import jakarta.servlet.ServletConfig;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The root context's only servlet. Payara Micro stops its applications one by one before it closes
 * the HTTP listener; in between, a request for a stopped application used to get the server's HTML
 * 404 (thousands of them in the crash test's SIGTERM round), which a client reads as "wrong URL".
 * Here it gets 503 with Retry-After. The start script deploys it last: Payara Micro stops its
 * applications in the order it deployed them (measured: deployed first, this context was stopped
 * first and the others' requests then got empty 500s), so this one outlives them. A JVM shutdown
 * hook marks the shutdown so that even requests for unknown paths are told to come back.
 */
@WebServlet(urlPatterns = "/", loadOnStartup = 1)
public class RootServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  private final AtomicBoolean shuttingDown = new AtomicBoolean();
  private transient Set<String> applications = Set.of();
  private transient Thread shutdownHook;

  @Override
  public void init(ServletConfig config) {
    applications =
        RootAnswer.applications(
            config.getServletContext().getInitParameter("io.mailbox.root.applications"));
    shutdownHook = new Thread(() -> shuttingDown.set(true), "mailbox-root-shutdown-flag");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  @Override
  public void destroy() {
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException alreadyShuttingDown) {
      // The JVM is stopping: the hook has run or is running; nothing to remove.
    }
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    RootAnswer answer =
        RootAnswer.forPath(request.getRequestURI(), applications, shuttingDown.get());
    response.setStatus(answer.status());
    if (answer.retryAfterSeconds() > 0) {
      response.setHeader("Retry-After", Integer.toString(answer.retryAfterSeconds()));
    }
    response.setHeader("Cache-Control", "no-store");
    response.setHeader("X-Content-Type-Options", "nosniff");
    response.setContentType("application/json");
    response.setCharacterEncoding(StandardCharsets.UTF_8.name());
    response.getWriter().write(answer.body());
  }
}
