package io.mailbox.connector.api;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ejb.EJBException;
import jakarta.ejb.NoSuchEJBException;
import java.lang.reflect.InvocationTargetException;
import org.junit.jupiter.api.Test;

class HandlerNotReadyTest {
  @Test
  void theContainersOwnRefusalDeepInTheChainIsNotReady() {
    // As SmallRye hands it over on Payara: wrapped by the reflective call of the @Incoming method.
    Throwable seen =
        new IllegalStateException(
            new InvocationTargetException(
                new EJBException("Attempt to invoke when container is in Initializing")));
    assertThat(HandlerNotReady.is(seen)).isTrue();
    assertThat(HandlerNotReady.is(new NoSuchEJBException("component unavailable"))).isTrue();
  }

  @Test
  void aBeanTheContainerCouldNotCreateIsNotReady() {
    // Payara on a SIGTERM, as the shipping MDB's call to a stateless bean saw it
    // (QuickStartCrashIT).
    jakarta.ejb.CreateException notCreated =
        new jakarta.ejb.CreateException("Could not create stateless EJB");
    notCreated.initCause(new IllegalStateException("the component's environment is gone"));
    assertThat(HandlerNotReady.is(new EJBException(notCreated))).isTrue();
    assertThat(HandlerNotReady.is(new IllegalStateException(new EJBException(notCreated))))
        .isTrue();
  }

  @Test
  void aBareEjbExceptionABeanThrowsItselfOrAnAccessRefusalIsAFailure() {
    // Counted as "not ready" they would come back forever and never be parked (review finding).
    assertThat(HandlerNotReady.is(new EJBException("order 42 not found"))).isFalse();
    assertThat(HandlerNotReady.is(new jakarta.ejb.EJBAccessException("not allowed"))).isFalse();
    assertThat(
            HandlerNotReady.is(new EJBException("Attempt to invoke when container is in STOPPED")))
        .isTrue();
  }

  @Test
  void aBeansOwnFailureIsAFailure() {
    assertThat(HandlerNotReady.is(new EJBException(new IllegalArgumentException("bad order"))))
        .isFalse();
    assertThat(HandlerNotReady.is(new IllegalStateException("courier down"))).isFalse();
    assertThat(HandlerNotReady.is(null)).isFalse();
  }
}
