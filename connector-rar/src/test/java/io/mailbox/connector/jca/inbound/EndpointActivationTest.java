package io.mailbox.connector.jca.inbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.RetriableDeliveryException;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.jca.MailboxResourceAdapter;
import io.mailbox.connector.jca.testsupport.FakeBootstrapContext;
import io.mailbox.connector.jca.testsupport.ListenerEndpointFactory;
import io.mailbox.connector.jca.testsupport.QueuedWorkManager;
import jakarta.resource.NotSupportedException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** MDB delivery: concurrency, retry, manual ack, deactivation and stop without loss. */
class EndpointActivationTest {
  private static final String INBOX = "mem:billing@shop/placed";

  private MailboxResourceAdapter adapter;

  private void start(FakeBootstrapContext context) throws Exception {
    adapter = new MailboxResourceAdapter();
    adapter.setMemoryScope("activation-test-" + UUID.randomUUID());
    adapter.start(context);
  }

  @AfterEach
  void stop() {
    if (adapter != null) {
      adapter.stop();
    }
  }

  private static MailboxActivationSpec spec(boolean manualAck, int maxConcurrency) {
    MailboxActivationSpec spec = new MailboxActivationSpec();
    spec.setAddress(INBOX);
    spec.setManualAck(manualAck);
    spec.setMaxConcurrency(maxConcurrency);
    spec.setPollIntervalMillis(10L);
    return spec;
  }

  private void post(String id) {
    adapter.kernel().post(MailMessage.to(INBOX).id(id).body("{}").build());
  }

  private long unread() {
    return adapter.kernel().status(INBOX).unreadCount();
  }

  private long inFlight() {
    return adapter.kernel().status(INBOX).inFlightCount();
  }

  private static void await(String what, BooleanSupplier condition) {
    io.mailbox.connector.testsupport.Eventually.await(
        what, java.time.Duration.ofSeconds(5), condition);
  }

  @Test
  void neverMoreThanMaxConcurrencyDeliveriesRunAtOnce() throws Exception {
    QueuedWorkManager work = new QueuedWorkManager();
    start(new FakeBootstrapContext(work));
    List<String> received = new CopyOnWriteArrayList<>();
    adapter.endpointActivation(
        ListenerEndpointFactory.forMessages(m -> received.add(m.id())), spec(false, 2));

    for (int i = 0; i < 5; i++) {
      post("m" + i);
    }

    assertThat(work.queued()).as("only two handed to the WorkManager").isEqualTo(2);
    work.runNext();
    assertThat(work.queued()).as("one finished, the next one starts").isEqualTo(2);
    while (work.queued() > 0) {
      work.runNext();
    }
    assertThat(received).containsExactly("m0", "m1", "m2", "m3", "m4");
  }

  @Test
  void deactivationGivesBackWhatWaitedAndLetsRunningDeliveriesSettle() throws Exception {
    QueuedWorkManager work = new QueuedWorkManager();
    start(new FakeBootstrapContext(work));
    List<String> received = new CopyOnWriteArrayList<>();
    ListenerEndpointFactory endpoints =
        ListenerEndpointFactory.forMessages(m -> received.add(m.id()));
    MailboxActivationSpec spec = spec(false, 1);
    adapter.endpointActivation(endpoints, spec);
    post("running");
    post("waiting-1");
    post("waiting-2");

    adapter.endpointDeactivation(endpoints, spec);
    work.runNext();

    assertThat(received).containsExactly("running");
    assertThat(unread()).as("nothing lost").isEqualTo(2);
    assertThat(inFlight()).isZero();
  }

  @Test
  void anAdapterStopWithDeliveriesInFlightLosesNothing() throws Exception {
    QueuedWorkManager work = new QueuedWorkManager();
    start(new FakeBootstrapContext(work));
    String scope = adapter.getMemoryScope();
    List<String> received = new CopyOnWriteArrayList<>();
    adapter.endpointActivation(
        ListenerEndpointFactory.forMessages(m -> received.add(m.id())), spec(false, 1));
    post("running");
    post("waiting");

    adapter.stop();
    work.runNext();
    adapter = new MailboxResourceAdapter();
    adapter.setMemoryScope(scope);
    adapter.start(new FakeBootstrapContext());

    assertThat(received).containsExactly("running");
    assertThat(unread()).as("the waiting one is back after a restart").isEqualTo(1);
  }

  @Test
  void anEndpointsOwnRetryPolicyRetriesBeforeGivingBack() throws Exception {
    start(new FakeBootstrapContext());
    List<String> attempts = new CopyOnWriteArrayList<>();
    MailboxActivationSpec spec = spec(false, 1);
    spec.setRetryMaxAttempts(3);
    spec.setRetryBaseDelayMillis(1L);
    adapter.endpointActivation(
        ListenerEndpointFactory.forMessages(
            m -> {
              attempts.add(m.header(SystemHeaders.ATTEMPT).orElse("?"));
              throw new RetriableDeliveryException("down");
            }),
        spec);

    post("a");

    await("three attempts and back in the queue", () -> unread() == 1);
    assertThat(attempts).containsExactly("1", "2", "3");
  }

  @Test
  void aFatalMdbFailureIsDeadLetteredByDefault() throws Exception {
    start(new FakeBootstrapContext());
    adapter.endpointActivation(
        ListenerEndpointFactory.forMessages(
            m -> {
              throw new IllegalStateException("bug");
            }),
        spec(false, 1));

    post("a");

    assertThat(unread()).isZero();
    assertThat(adapter.kernel().status(INBOX + "_dlq").unreadCount()).isEqualTo(1);
  }

  @Test
  void aManualAckMdbSettlesEachDeliveryItself() throws Exception {
    start(new FakeBootstrapContext());
    List<String> handled = new CopyOnWriteArrayList<>();
    adapter.endpointActivation(
        ListenerEndpointFactory.forDeliveries(
            d -> {
              handled.add(d.message().id());
              d.ack();
            }),
        spec(true, 4));

    post("a");
    post("b");

    await("both handled", () -> handled.size() == 2);
    await("nothing left in flight", () -> inFlight() == 0);
    assertThat(unread()).isZero();
  }

  @Test
  void aManualAckMdbThatThrowsBeforeSettlingGetsItsExceptionMapped() throws Exception {
    start(new FakeBootstrapContext());
    List<String> rounds = new CopyOnWriteArrayList<>();
    adapter.endpointActivation(
        ListenerEndpointFactory.forDeliveries(
            d -> {
              rounds.add(d.message().header(SystemHeaders.ROUND).orElse("?"));
              if (rounds.size() == 1) {
                throw new RetriableDeliveryException("once");
              }
              d.settle(Disposition.HANDLED);
            }),
        spec(true, 1));

    post("a");

    await("redelivered and handled", () -> rounds.size() == 2);
    assertThat(rounds).containsExactly("1", "2");
  }

  @Test
  void aManualAckMdbHoldsNoMoreLeasesThanItsConcurrency() throws Exception {
    start(new FakeBootstrapContext());
    List<Delivery> held = new CopyOnWriteArrayList<>();
    adapter.endpointActivation(ListenerEndpointFactory.forDeliveries(held::add), spec(true, 3));
    for (int i = 0; i < 10; i++) {
      post("m" + i);
    }

    await("three held", () -> held.size() == 3);
    Thread.sleep(100);
    assertThat(held).hasSize(3);
    assertThat(inFlight()).isEqualTo(3);
    assertThat(unread()).isEqualTo(7);
  }

  @Test
  void anMdbWhoseInterfaceDoesNotMatchManualAckIsRefused() throws Exception {
    start(new FakeBootstrapContext());

    assertThatThrownBy(
            () ->
                adapter.endpointActivation(
                    ListenerEndpointFactory.forMessages(m -> {}), spec(true, 1)))
        .isInstanceOf(NotSupportedException.class)
        .hasMessageStartingWith("MBX-2004");
  }

  @Test
  void invalidActivationPropertiesAreRefused() {
    MailboxActivationSpec spec = spec(false, 0);

    assertThatThrownBy(spec::validate).hasMessageContaining("maxConcurrency");
    spec.setMaxConcurrency(1);
    spec.setRetryMaxAttempts(-1);
    assertThatThrownBy(spec::validate).hasMessageContaining("retryMaxAttempts");
  }

  @Test
  void invalidAdapterPropertiesStopTheStartWithACode() {
    MailboxResourceAdapter misconfigured = new MailboxResourceAdapter();
    misconfigured.setDeadLetterSuffix("/dlq");

    assertThatThrownBy(() -> misconfigured.start(new FakeBootstrapContext()))
        .hasMessageStartingWith("MBX-1008");
    assertThat(misconfigured.isRunning()).isFalse();
  }

  @Test
  void theAdaptersDefaultLeaseIsThirtySeconds() throws Exception {
    start(new FakeBootstrapContext());

    assertThat(adapter.defaultAckTimeout()).isEqualTo(Duration.ofSeconds(30));
  }
}
