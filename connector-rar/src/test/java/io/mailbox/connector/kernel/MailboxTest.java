package io.mailbox.connector.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxSubscriber;
import io.mailbox.connector.api.Snapshot;
import io.mailbox.connector.provider.mem.MemoryProvider;
import io.mailbox.connector.spi.MailboxProvider;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MailboxTest {
  private Mailbox mailbox;

  @BeforeEach
  void start() {
    mailbox = new Mailbox().register(new MemoryProvider());
    mailbox.start();
  }

  @Test
  void postsAreRoutedByScheme() {
    mailbox.post(MailMessage.to("mem:a@b/c").body("{}").build());

    assertThat(mailbox.status("mem://a@b/c").unreadCount()).isEqualTo(1);
    assertThat(mailbox.fetch("mem:a@b/c")).isPresent();
  }

  @Test
  void unknownSchemeIsRefusedNamingTheRegisteredOnes() {
    assertThatThrownBy(() -> mailbox.status("amqp:a@b"))
        .hasMessageStartingWith("MBX-1003")
        .hasMessageContaining("[mem]");
  }

  @Test
  void providerLookupAcceptsTheSchemeWithOrWithoutColon() {
    assertThat(mailbox.provider("mem")).isPresent();
    assertThat(mailbox.provider("MEM:")).isPresent();
    assertThat(mailbox.provider("amqp")).isEmpty();
  }

  @Test
  void aSecondProviderForTheSameSchemeIsRefused() {
    assertThatThrownBy(() -> mailbox.register(new MemoryProvider()))
        .hasMessageStartingWith("MBX-1005");
  }

  @Test
  void everyEntryPointRefusesAQueryBeforeTouchingAProvider() {
    assertThatThrownBy(() -> mailbox.status("mem:a@b?x=1")).hasMessageStartingWith("MBX-1002");
    assertThatThrownBy(() -> mailbox.fetch("mem:a@b?x=1")).hasMessageStartingWith("MBX-1002");
    assertThatThrownBy(() -> mailbox.subscribe("mem:a@b#f", MailboxSubscriber.of(m -> {})))
        .hasMessageStartingWith("MBX-1002");
    assertThatThrownBy(() -> MailMessage.to("mem:a@b?x=1")).hasMessageStartingWith("MBX-1002");
  }

  @Test
  void snapshotListsEveryAddressSortedAndIsOnline() {
    mailbox.post(MailMessage.to("mem:z@b").body("").build());
    mailbox.post(MailMessage.to("mem:a@b").body("").build());

    Snapshot snapshot = mailbox.snapshot();

    assertThat(snapshot.state()).isEqualTo(AddressState.ONLINE);
    assertThat(snapshot.addresses())
        .extracting(s -> s.address().toString())
        .containsExactly("mem://a@b", "mem://z@b");
    assertThat(snapshot.unreadCount()).isEqualTo(2);
  }

  @Test
  void aProviderThatCannotEnumerateDegradesTheSnapshot() {
    mailbox.register(new BlindProvider());
    mailbox.start();

    Snapshot snapshot = mailbox.snapshot();

    assertThat(snapshot.state()).isEqualTo(AddressState.DEGRADED);
    assertThat(snapshot.unsupportedProviders()).containsExactly("blind");
  }

  @Test
  void aStoppedMailboxReportsOffline() {
    mailbox.stop(false);

    assertThat(mailbox.snapshot().state()).isEqualTo(AddressState.OFFLINE);
  }

  /** A provider that, like a broker, cannot list its addresses. */
  private static final class BlindProvider extends MailboxProvider {
    BlindProvider() {
      super(Clock.systemUTC());
    }

    @Override
    public String scheme() {
      return "blind";
    }

    @Override
    public AddressStatus status(MailAddress address) {
      return AddressStatus.unknown(address);
    }

    @Override
    public Optional<List<AddressStatus>> enumerate() {
      return Optional.empty();
    }

    @Override
    protected void send(MailMessage stamped) {}

    @Override
    protected AutoCloseable openSubscription(MailAddress address, MailboxSubscriber subscriber) {
      return () -> {};
    }

    @Override
    protected Optional<MailMessage> take(MailAddress address) {
      return Optional.empty();
    }
  }
}
