package io.mailbox.server.payaramicro.indoubt;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import jakarta.annotation.Resource;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.UserTransaction;
import java.io.IOException;
import java.util.stream.Collectors;
import javax.naming.InitialContext;

/**
 * {@code POST /indoubt/?id=x&halt=commit&enlist=first} posts one message through the adapter's
 * connection in a JTA transaction that also holds a {@link HaltingXaResource} (enlisted before or
 * after the adapter's connection), so the commit is two-phase and the JVM stops where asked. {@code
 * GET /indoubt/} lists the message ids waiting at the address. Test code: it reaches Payara's
 * transaction manager by its server-specific name.
 */
@WebServlet("/")
public class InDoubtServlet extends HttpServlet {
  static final String ADDRESS = "jdbc:indoubt@test/posts";

  @Resource private UserTransaction transaction;

  @Resource(lookup = MailboxConnectionFactory.DEFAULT_JNDI_NAME)
  private MailboxConnectionFactory mailbox;

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    HaltingXaResource.HaltAt haltAt =
        HaltingXaResource.HaltAt.valueOf(request.getParameter("halt").toUpperCase());
    boolean first = "first".equals(request.getParameter("enlist"));
    try {
      transaction.begin();
      TransactionManager manager =
          (TransactionManager) new InitialContext().lookup("java:appserver/TransactionManager");
      HaltingXaResource halting = new HaltingXaResource(haltAt);
      if (first) {
        manager.getTransaction().enlistResource(halting);
      }
      try (MailboxConnection connection = mailbox.getConnection()) {
        connection.post(MailMessage.to(ADDRESS).id(request.getParameter("id")).body("{}").build());
      }
      if (!first) {
        manager.getTransaction().enlistResource(halting);
      }
      transaction.commit();
      response.getWriter().print("committed");
    } catch (Exception e) {
      response.setStatus(500);
      response.getWriter().print(e.getClass().getName());
    }
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    try (MailboxConnection connection = mailbox.getConnection()) {
      response
          .getWriter()
          .print(
              connection.peek(ADDRESS, 1000).stream()
                  .map(MailMessage::id)
                  .collect(Collectors.joining(",")));
    }
  }
}
