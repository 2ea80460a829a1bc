package io.mailbox.connector.jca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.RetriableDeliveryException;
import io.mailbox.connector.jca.inbound.MailboxActivationSpec;
import io.mailbox.connector.jca.testsupport.FakeBootstrapContext;
import io.mailbox.connector.jca.testsupport.ImmediateWorkManager;
import io.mailbox.connector.jca.testsupport.ListenerEndpointFactory;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ResourceAdapterInternalException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MailboxResourceAdapterTest {
  private static final String INBOX = "mem:billing@shop/placed";

  private final FakeBootstrapContext context = new FakeBootstrapContext();
  private MailboxResourceAdapter adapter;

  @BeforeEach
  void start() throws Exception {
    adapter = new MailboxResourceAdapter();
    adapter.setMemoryScope("adapter-test-" + java.util.UUID.randomUUID());
    adapter.start(context);
  }

  @AfterEach
  void stop() {
    adapter.stop();
  }

  private static MailboxActivationSpec specFor(String address) {
    MailboxActivationSpec spec = new MailboxActivationSpec();
    spec.setAddress(address);
    return spec;
  }

  private void post(String id) {
    adapter.kernel().post(MailMessage.to(INBOX).id(id).body("{}").build());
  }

  @Test
  void startsTheMemProviderByDefault() {
    assertThat(adapter.kernel().schemes()).containsExactly("mem");
  }

  @Test
  void theFileProviderCanBeEnabledBesideMem(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path folder) throws Exception {
    MailboxResourceAdapter withFiles = new MailboxResourceAdapter();
    withFiles.setMemoryScope("file-test-" + java.util.UUID.randomUUID());
    withFiles.setEnabledProviders("mem,file");
    withFiles.setFileRoot(folder.toString());
    withFiles.start(context);
    try {
      withFiles.kernel().post(MailMessage.to("file:agent@crew/inbox").body("{}").build());

      assertThat(withFiles.kernel().schemes()).containsExactly("file", "mem");
      assertThat(folder.resolve("crew/agent/inbox")).isDirectory();
      assertThat(withFiles.kernel().status("file:agent@crew/inbox").unreadCount()).isEqualTo(1);
    } finally {
      withFiles.stop();
    }
  }

  @Test
  void anUnknownProviderInTheConfigurationStopsTheStart() {
    MailboxResourceAdapter misconfigured = new MailboxResourceAdapter();
    misconfigured.setEnabledProviders("mem, kafkaa");

    assertThatThrownBy(() -> misconfigured.start(context))
        .isInstanceOf(ResourceAdapterInternalException.class)
        .hasMessageContaining("MBX-1003")
        .hasMessageContaining("kafkaa");
    assertThat(misconfigured.isRunning()).isFalse();
  }

  @Test
  void aStoppedAdapterRefusesWithNotStarted() {
    adapter.stop();

    assertThatThrownBy(() -> adapter.kernel()).hasMessageStartingWith("MBX-2001");
  }

  @Test
  void anActivatedEndpointReceivesEveryPostedMessage() throws Exception {
    List<String> received = new CopyOnWriteArrayList<>();
    ListenerEndpointFactory endpoints =
        ListenerEndpointFactory.forMessages(m -> received.add(m.id()));
    adapter.endpointActivation(endpoints, specFor(INBOX));

    post("a");
    post("b");

    assertThat(received).containsExactly("a", "b");
    assertThat(endpoints.releasedCount()).isEqualTo(2);
  }

  @Test
  void aRetriableMdbFailurePutsTheMessageBack() throws Exception {
    adapter.endpointActivation(
        ListenerEndpointFactory.forMessages(
            m -> {
              throw new RetriableDeliveryException("database down");
            }),
        specFor(INBOX));

    post("a");

    assertThat(adapter.kernel().status(INBOX).unreadCount()).isEqualTo(1);
  }

  @Test
  void aFatalMdbFailureDiscardsTheMessage() throws Exception {
    adapter.endpointActivation(
        ListenerEndpointFactory.forMessages(
            m -> {
              throw new IllegalStateException("bug");
            }),
        specFor(INBOX));

    post("a");

    assertThat(adapter.kernel().status(INBOX).unreadCount()).isZero();
  }

  @Test
  void aRefusingWorkManagerNeverLosesTheMessage() throws Exception {
    adapter.endpointActivation(ListenerEndpointFactory.forMessages(m -> {}), specFor(INBOX));
    ((ImmediateWorkManager) context.getWorkManager()).refuseWork();

    post("a");

    assertThat(adapter.kernel().status(INBOX).unreadCount()).isEqualTo(1);
  }

  @Test
  void deactivationStopsDelivery() throws Exception {
    List<String> received = new CopyOnWriteArrayList<>();
    ListenerEndpointFactory endpoints =
        ListenerEndpointFactory.forMessages(m -> received.add(m.id()));
    MailboxActivationSpec spec = specFor(INBOX);
    adapter.endpointActivation(endpoints, spec);

    adapter.endpointDeactivation(endpoints, spec);
    post("a");

    assertThat(received).isEmpty();
    assertThat(adapter.kernel().status(INBOX).unreadCount()).isEqualTo(1);
  }

  @Test
  void anActivationWithoutAddressIsRefused() {
    assertThatThrownBy(() -> specFor(null).validate())
        .isInstanceOf(InvalidPropertyException.class)
        .hasMessageStartingWith("MBX-2004");
    assertThatThrownBy(() -> specFor("mem:a@b?q=1").validate())
        .isInstanceOf(InvalidPropertyException.class)
        .hasMessageContaining("MBX-1002");
  }
}
