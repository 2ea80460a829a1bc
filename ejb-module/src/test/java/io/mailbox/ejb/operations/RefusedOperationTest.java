package io.mailbox.ejb.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import jakarta.ejb.ApplicationException;
import jakarta.interceptor.Interceptors;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;

class RefusedOperationTest {
  @Test
  void aKernelRefusalLeavesTheFacadesAsAnApplicationExceptionWithItsCodeAndMessage() {
    InvocationContext refusing =
        (InvocationContext)
            Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {InvocationContext.class},
                (proxy, method, args) -> {
                  throw new MailboxException(ErrorCode.MALFORMED_ADDRESS, "Address 'x' is bad");
                });

    assertThatThrownBy(() -> new RefusedOperation.Interceptor().refusalsAreAnswers(refusing))
        .isInstanceOf(RefusedOperation.class)
        .isInstanceOf(MailboxException.class)
        .hasMessage("MBX-1001 Address 'x' is bad")
        .satisfies(e -> assertThat(e.getStackTrace()).isEmpty());
    assertThat(RefusedOperation.class.getAnnotation(ApplicationException.class).rollback())
        .isTrue();
  }

  @Test
  void bothFacadesUseTheInterceptor() {
    for (Class<?> facade : new Class<?>[] {MailboxOperations.class, OutboxOperations.class}) {
      assertThat(facade.getAnnotation(Interceptors.class).value())
          .as(facade.getSimpleName())
          .containsExactly(RefusedOperation.Interceptor.class);
    }
  }
}
