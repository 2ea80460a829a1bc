package io.mailbox.connector.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.Capabilities;
import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.ProviderState;
import io.mailbox.connector.api.Reachability;
import io.mailbox.connector.api.RecoverResult;
import io.mailbox.connector.api.Snapshot;
import io.mailbox.connector.provider.mem.MemoryProvider;
import io.mailbox.connector.spi.Enumerating;
import io.mailbox.connector.spi.Lease;
import io.mailbox.connector.spi.Receiver;
import io.mailbox.connector.spi.TransportBase;
import io.mailbox.connector.testsupport.ManualClock;
import io.mailbox.connector.testsupport.ManualScheduler;
import java.time.Clock;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MailboxTest {
  private Mailbox mailbox;

  @BeforeEach
  void start() {
    mailbox = new Mailbox().register(MailboxProvider.of(MemoryProvider.isolated()));
    mailbox.start();
  }

  @Test
  void postsAreRoutedByScheme() {
    mailbox.post(MailMessage.to("mem:a@b/c").body("{}").build());

    assertThat(mailbox.status("mem://a@b/c").unreadCount()).isEqualTo(1);
    assertThat(mailbox.fetch("mem:a@b/c")).isPresent();
  }

  @Test
  void postsIssuedTogetherWithAnUnknownSchemeAreRefusedBeforeAnyIsPosted() {
    List<MailMessage> letters =
        List.of(
            MailMessage.to("mem:a@b/c").body("{}").build(),
            MailMessage.to("amqp:a@b/c").body("{}").build());

    assertThatThrownBy(() -> mailbox.postAll(letters)).hasMessageStartingWith("MBX-1003");
    assertThat(mailbox.status("mem:a@b/c").unreadCount()).isZero();
  }

  @Test
  void postsIssuedTogetherAreRoutedBySchemeAndReturnedInOrder() {
    List<MailMessage> stamped =
        mailbox.postAll(
            List.of(
                MailMessage.to("mem:a@b/c").id("1").body("{}").build(),
                MailMessage.to("mem:a@b/d").id("2").body("{}").build()));

    assertThat(stamped).extracting(MailMessage::id).containsExactly("1", "2");
    assertThat(mailbox.status("mem:a@b/c").unreadCount()).isEqualTo(1);
    assertThat(mailbox.status("mem:a@b/d").unreadCount()).isEqualTo(1);
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
    assertThatThrownBy(() -> mailbox.register(MailboxProvider.of(new MemoryProvider())))
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
    mailbox.register(MailboxProvider.of(new BlindTransport()));
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

  @Test
  void fetchPeekAndSettleGoThroughTheKernelByAddress() {
    mailbox.post(MailMessage.to("mem:a@b/c").id("x").body("{}").build());

    assertThat(mailbox.peek("mem:a@b/c", 5)).extracting(MailMessage::id).containsExactly("x");
    Delivery delivery = mailbox.fetch("mem:a@b/c", FetchOptions.leased()).get(0);
    assertThat(
            mailbox.settle(
                "mem://a@b/c",
                delivery.key(),
                delivery.leaseId().orElseThrow(),
                Disposition.HANDLED))
        .isTrue();
    assertThat(mailbox.status("mem:a@b/c").inFlightCount()).isZero();
  }

  @Test
  void recoverOfEverythingNamesTheProvidersThatCannot() {
    mailbox.register(MailboxProvider.of(new BlindTransport()));
    mailbox.start();
    mailbox.post(MailMessage.to("mem:a@b/c").body("{}").build());

    RecoverResult result = mailbox.recover();

    assertThat(result.supported()).isFalse();
    assertThat(result.unsupportedProviders()).containsExactly("blind");
    assertThat(mailbox.recover("blind:x@y").supported()).isFalse();
  }

  @Test
  void locateAsksEveryProviderThatCanAndClearDropsTheBacklog() {
    mailbox.post(MailMessage.to("mem:a@b/c").id("dup").body("{}").build());
    mailbox.post(MailMessage.to("mem:a@b/d").id("dup").body("{}").build());

    assertThat(mailbox.locate("dup")).hasSize(2);
    assertThat(mailbox.clear()).isEqualTo(2);
    assertThat(mailbox.locate("dup")).isEmpty();
  }

  @Test
  void capabilitiesAreAnsweredPerAddress() {
    assertThat(mailbox.can(Capabilities.PEEK, "mem:a@b")).isTrue();
    assertThat(mailbox.can(Capabilities.DEAD_LETTER, "mem:a@b")).isFalse();
    mailbox.requireProvider("mem").enableDeadLetterQueue(DeadLetterPolicy.defaults());
    assertThat(mailbox.can(Capabilities.DEAD_LETTER, "mem:a@b")).isTrue();
  }

  @Test
  void aChannelIsPushedOnlyWhereTheTransportHandsItsBacklogToSubscribers() {
    // mem: keeps a copy given back in its queue for a fetch: a pushed channel would never see it.
    assertThatThrownBy(
            () ->
                mailbox.subscribeCountingRounds(
                    MailAddress.parse("mem:a@b"),
                    copy -> java.util.concurrent.CompletableFuture.completedFuture(null)))
        .hasMessageStartingWith("MBX-1007")
        .hasMessageContaining("delivery=fetch");
  }

  @Test
  void parkedOperationsNeedTheCapability() {
    mailbox.register(MailboxProvider.of(new BlindTransport()));

    assertThatThrownBy(() -> mailbox.peekParked("blind:x@y", 1)).hasMessageStartingWith("MBX-1007");
    assertThat(mailbox.purgeParked("mem:a@b")).isZero();
  }

  @Test
  void aProviderThatCannotReachItsBrokerTakesTheSnapshotOfflineUntilItCanAgain() {
    BlindTransport broker = new BlindTransport();
    MailboxProvider provider = MailboxProvider.of(broker);
    mailbox.register(provider);
    provider.start();

    broker.reachability = Reachability.DOWN;
    Snapshot down = mailbox.snapshot();
    assertThat(down.state()).isEqualTo(AddressState.OFFLINE);
    assertThat(down.providers())
        .contains(new ProviderState("blind", true, Reachability.DOWN))
        .as("mem: answered its listing, its only evidence")
        .contains(new ProviderState("mem", true, Reachability.UP));
    broker.reachability = Reachability.UP;
    assertThat(mailbox.snapshot().state())
        .as("back up; degraded only because it cannot enumerate")
        .isEqualTo(AddressState.DEGRADED);
  }

  @Test
  void aProviderWithoutAProbeIsUnknownUntilItsListingAnswersForIt() {
    BlindTransport broker = new BlindTransport();
    broker.reachability = Reachability.UNKNOWN;
    MailboxProvider provider = MailboxProvider.of(broker);
    mailbox.register(provider);
    provider.start();

    Snapshot snapshot = mailbox.snapshot();

    assertThat(snapshot.providers())
        .as("it cannot list: nothing answered for it, and unknown is not down")
        .contains(new ProviderState("blind", true, Reachability.UNKNOWN));
    assertThat(snapshot.state()).isEqualTo(AddressState.DEGRADED);
  }

  @Test
  void aListingThatFailsMarksItsProviderDownAndStillListsTheOthers() {
    mailbox.post(MailMessage.to("mem:a@b/c").body("{}").build());
    ListingFails failing = new ListingFails();
    MailboxProvider provider = MailboxProvider.of(failing);
    mailbox.register(provider);
    provider.start();

    Snapshot snapshot = mailbox.snapshot();

    assertThat(snapshot.state()).isEqualTo(AddressState.OFFLINE);
    assertThat(snapshot.providers()).contains(new ProviderState("broken", true, Reachability.DOWN));
    assertThat(snapshot.addresses())
        .extracting(a -> a.address().toString())
        .contains("mem://a@b/c");
  }

  /** A store whose listing fails, as a database that went away does. */
  private static final class ListingFails extends BlindTransport implements Enumerating {
    @Override
    public String scheme() {
      return "broken";
    }

    @Override
    public List<AddressStatus> enumerate() {
      throw new IllegalStateException("connection refused: db.internal:5432 as user shop");
    }
  }

  /** A transport that, like a broker, cannot list its addresses, recover or park. */
  private static class BlindTransport extends TransportBase {
    volatile Reachability reachability = Reachability.UP;

    BlindTransport() {
      super(Clock.systemUTC(), new ManualScheduler(new ManualClock(java.time.Instant.EPOCH)));
    }

    @Override
    public Reachability reachability() {
      return reachability;
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
    public void send(MailAddress topic, MailMessage copy) {}

    @Override
    public AutoCloseable openSubscription(MailAddress address, Receiver receiver) {
      return () -> {};
    }

    @Override
    public List<MailMessage> takeQueued(
        MailAddress address, int limit, Lease lease, UnaryOperator<MailMessage> handOut) {
      return List.of();
    }

    @Override
    public boolean requeue(MailAddress address, MailMessage copy) {
      return false;
    }

    @Override
    public long clearBacklog() {
      return 0;
    }
  }
}
