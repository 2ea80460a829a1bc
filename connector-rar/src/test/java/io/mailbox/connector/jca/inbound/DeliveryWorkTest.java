package io.mailbox.connector.jca.inbound;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.RetriableDeliveryException;
import org.junit.jupiter.api.Test;

class DeliveryWorkTest {
  /** Stands for an MDB class: its frames are on the stack when its own code fails. */
  static final class ShippingBean {
    static void onMessage() {
      throw new IllegalStateException("no courier available");
    }

    static void callAStoppedContainer() {
      throw new jakarta.ejb.EJBException("Attempt to invoke when container is in STOPPED");
    }
  }

  @Test
  void aFailureRaisedInsideTheBeanIsTheBeansOwn() {
    Throwable own = catchFrom(ShippingBean::onMessage);
    assertThat(DeliveryWork.beanNeverRan(ShippingBean.class, own)).isFalse();
    // The container wraps it: the bean's frames are still in the cause.
    assertThat(DeliveryWork.beanNeverRan(ShippingBean.class, new RuntimeException(own))).isFalse();
  }

  @Test
  void aFailureTheContainerRaisedBeforeTheBeanRanIsNotNow() {
    Throwable container =
        new ClassCastException("SessionContextImpl cannot be cast to MessageBeanContextImpl");
    assertThat(DeliveryWork.beanNeverRan(ShippingBean.class, container)).isTrue();
    assertThat(DeliveryWork.beanNeverRan(null, container)).as("no bean class known").isFalse();
  }

  @Test
  void theDeliveryReportsTheContainersRefusalAsRetriable() throws Exception {
    var outcome = new java.util.concurrent.CompletableFuture<Void>();
    new DeliveryWork(
            new FixedEndpointFactory(ShippingBean.class),
            endpoint -> {
              throw new ClassCastException("container not ready");
            },
            outcome,
            java.time.Duration.ZERO)
        .run();
    assertThat(outcome).isCompletedExceptionally();
    assertThat(outcome.handle((ok, failure) -> failure).get())
        .isInstanceOf(RetriableDeliveryException.class);

    var own = new java.util.concurrent.CompletableFuture<Void>();
    new DeliveryWork(
            new FixedEndpointFactory(ShippingBean.class),
            endpoint -> ShippingBean.onMessage(),
            own,
            java.time.Duration.ZERO)
        .run();
    assertThat(own.handle((ok, failure) -> failure).get())
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aContainerRefusingWhatTheBeanCalledIsNotNowEither() throws Exception {
    var outcome = new java.util.concurrent.CompletableFuture<Void>();
    new DeliveryWork(
            new FixedEndpointFactory(ShippingBean.class),
            endpoint -> ShippingBean.callAStoppedContainer(),
            outcome,
            java.time.Duration.ZERO)
        .run();
    assertThat(outcome.handle((ok, failure) -> failure).get())
        .isInstanceOf(RetriableDeliveryException.class);
  }

  private static Throwable catchFrom(Runnable code) {
    try {
      code.run();
      throw new AssertionError("expected a failure");
    } catch (RuntimeException e) {
      return e;
    }
  }

  /** An endpoint factory whose endpoints do nothing: the invocation under test does the work. */
  private record FixedEndpointFactory(Class<?> beanClass)
      implements jakarta.resource.spi.endpoint.MessageEndpointFactory {
    @Override
    public jakarta.resource.spi.endpoint.MessageEndpoint createEndpoint(
        javax.transaction.xa.XAResource xaResource) {
      return new jakarta.resource.spi.endpoint.MessageEndpoint() {
        @Override
        public void beforeDelivery(java.lang.reflect.Method method) {}

        @Override
        public void afterDelivery() {}

        @Override
        public void release() {}
      };
    }

    @Override
    public jakarta.resource.spi.endpoint.MessageEndpoint createEndpoint(
        javax.transaction.xa.XAResource xaResource, long timeout) {
      return createEndpoint(xaResource);
    }

    @Override
    public boolean isDeliveryTransacted(java.lang.reflect.Method method) {
      return false;
    }

    @Override
    public String getActivationName() {
      return "test";
    }

    @Override
    public Class<?> getEndpointClass() {
      return beanClass;
    }
  }
}
