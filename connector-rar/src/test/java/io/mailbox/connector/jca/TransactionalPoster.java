package io.mailbox.connector.jca;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

/** Posts through the connection factory inside (or outside) a container transaction. */
@Stateless
public class TransactionalPoster {
  @Resource(lookup = MailboxConnectionFactory.DEFAULT_JNDI_NAME)
  private MailboxConnectionFactory factory;

  @Resource private SessionContext context;

  @EJB private InboxRecorder recorder;

  /**
   * Posts in a transaction, then waits inside it.
   *
   * @return how many messages the MDB had received when the transaction was about to commit
   */
  @TransactionAttribute(TransactionAttributeType.REQUIRED)
  public int postAndLinger(MailMessage message, long lingerMillis) throws InterruptedException {
    try (MailboxConnection connection = factory.getConnection()) {
      connection.post(message);
    }
    Thread.sleep(lingerMillis);
    return recorder.count();
  }

  @TransactionAttribute(TransactionAttributeType.REQUIRED)
  public void postAndRollBack(MailMessage message) {
    try (MailboxConnection connection = factory.getConnection()) {
      connection.post(message);
    }
    context.setRollbackOnly();
  }

  @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
  public void postWithoutTransaction(MailMessage message) {
    try (MailboxConnection connection = factory.getConnection()) {
      connection.post(message);
    }
  }

  @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
  public io.mailbox.connector.api.AddressStatus status(String address) {
    try (MailboxConnection connection = factory.getConnection()) {
      return connection.status(address);
    }
  }

  /** Returns the error message a closed handle gives. */
  @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
  public String useClosedHandle() {
    MailboxConnection connection = factory.getConnection();
    connection.close();
    try {
      connection.status(RecordingListener.ADDRESS);
      return "no error";
    } catch (RuntimeException e) {
      return e.getMessage();
    }
  }
}
