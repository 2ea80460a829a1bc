package io.mailbox.ejb.operations;

import io.mailbox.connector.api.MailboxException;
import jakarta.ejb.ApplicationException;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.InvocationContext;

/**
 * A kernel refusal (a malformed address, an unsupported operation) leaving an operations facade: an
 * application exception, so the container neither wraps it nor logs it with a stack trace as a
 * system failure (a refusal is an answer; its value may be text crafted for the log). Still a
 * {@link MailboxException} with the same code and message; the transaction, if any, rolls back.
 */
@ApplicationException(rollback = true)
public final class RefusedOperation extends MailboxException {
  private static final long serialVersionUID = 1L;

  RefusedOperation(MailboxException refusal) {
    // The message already starts with the code, which the constructor adds again.
    super(
        refusal.errorCode(),
        refusal.getMessage().substring(refusal.errorCode().code().length()).strip(),
        null);
    setStackTrace(new StackTraceElement[0]);
  }

  /**
   * The facades' interceptor: turns a kernel refusal into a {@link RefusedOperation}. Not final:
   * the EJB container subclasses interceptors.
   */
  public static class Interceptor {
    @AroundInvoke
    public Object refusalsAreAnswers(InvocationContext invocation) throws Exception {
      try {
        return invocation.proceed();
      } catch (RefusedOperation alreadyAnswered) {
        throw alreadyAnswered;
      } catch (MailboxException refusal) {
        throw new RefusedOperation(refusal);
      }
    }
  }
}
