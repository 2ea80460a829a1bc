package io.mailbox.connector.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.Capabilities;
import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.RetriableDeliveryException;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.kernel.MailboxSubscriber;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The provider conformance kit: the contract every provider keeps, whatever its transport. A
 * provider's test extends this class and supplies a new, unstarted provider; tests of capabilities
 * the provider does not declare are skipped (an honest "cannot"), never weakened. Transports that
 * deliver asynchronously are waited for up to {@link #eventually()}.
 *
 * <p>Published as {@code io.mailbox:connector-rar:<version>:jar:tck} (with JUnit 5 and AssertJ on
 * the test class path), so a provider built outside this repository runs the same suite as the
 * shipped ones; {@code examples/tiny-provider} does exactly that (docs/providers.md).
 */
public abstract class ProviderContract extends InspectionContract {
  // ---- push failures ----------------------------------------------------------------------------

  @Test
  void aRetriableFailureOfEverySubscriberPutsOneCopyBack() {
    MailAddress inbox = address("retriable");
    for (int i = 0; i < 2; i++) {
      provider.subscribe(
          inbox,
          MailboxSubscriber.of(
              m -> {
                throw new RetriableDeliveryException("down");
              }));
    }

    provider.post(letter(inbox, "a"));

    await("one copy back in the queue", () -> provider.status(inbox).unreadCount() == 1);
    await("nothing in flight", () -> provider.status(inbox).inFlightCount() == 0);
  }

  @Test
  void aFatalFailureDiscardsTheMessage() {
    MailAddress inbox = address("fatal");
    List<String> calls = new CopyOnWriteArrayList<>();
    provider.subscribe(
        inbox,
        MailboxSubscriber.of(
            m -> {
              calls.add(m.id());
              throw new IllegalArgumentException("bad payload");
            }));

    provider.post(letter(inbox, "a"));

    await("the subscriber ran", () -> calls.size() == 1);
    await("settled", () -> provider.status(inbox).inFlightCount() == 0);
    assertThat(provider.status(inbox).unreadCount()).isZero();
  }

  // ---- status -----------------------------------------------------------------------------------

  @Test
  void anAddressNeverSeenIsUnknownNotAnEmptyOnlineQueue() {
    AddressStatus status = provider.status(address("never-seen"));

    assertThat(status.state()).isEqualTo(AddressState.UNKNOWN);
    assertThat(status.exists()).isFalse();
    assertThat(status.lastActivity()).isNull();
  }

  @Test
  void aDrainedAddressStaysOnline() {
    MailAddress inbox = address("drained");
    provider.post(letter(inbox, "a"));
    await("queued", () -> provider.status(inbox).unreadCount() == 1);
    fetchAll(inbox);

    AddressStatus status = provider.status(inbox);
    assertThat(status.state()).isEqualTo(AddressState.ONLINE);
    assertThat(status.exists()).isTrue();
    assertThat(status.lastActivity()).isNotNull();
  }

  // ---- leases over time -------------------------------------------------------------------------

  @Test
  void anExpiredLeaseHandsTheSameCopyOutAgainAndTheLateSettleIsRefused() {
    assumeCapability(Capabilities.LEASE);
    MailAddress inbox = address("expiry");
    provider.post(letter(inbox, "a"));
    await("queued", () -> provider.status(inbox).unreadCount() == 1);
    Delivery first = provider.fetch(inbox, FetchOptions.leased(Duration.ofMillis(200))).get(0);

    List<Delivery> again = new java.util.ArrayList<>();
    await(
        "handed out again after its lease",
        () -> {
          again.addAll(provider.fetch(inbox, FetchOptions.leased()));
          return !again.isEmpty();
        });

    Delivery second = again.get(0);
    assertThat(second.key()).isEqualTo(first.key());
    assertThat(second.message().header(SystemHeaders.ROUND)).contains("2");
    assertThat(first.ack()).as("a settle under the expired lease").isFalse();
    assertThat(second.ack()).isTrue();
    assertThat(fetchAll(inbox)).isEmpty();
  }

  @Test
  void recoverPutsExpiredLeasesBackAtOnceAndIsIdempotent() throws InterruptedException {
    assumeCapability(Capabilities.LEASE);
    assumeCapability(Capabilities.RECOVER);
    MailAddress inbox = address("recover");
    provider.post(letter(inbox, "a"));
    await("queued", () -> provider.status(inbox).unreadCount() == 1);
    provider.fetch(inbox, FetchOptions.leased(Duration.ofMillis(100)));
    Thread.sleep(300);

    io.mailbox.connector.api.RecoverResult result = provider.recover(inbox);

    assertThat(result.supported()).isTrue();
    assertThat(result.reclaimed()).isEqualTo(1);
    await("back in the queue", () -> provider.status(inbox).unreadCount() == 1);
    assertThat(provider.status(inbox).inFlightCount()).isZero();
    assertThat(provider.recover(inbox).reclaimed()).as("nothing left to reclaim").isZero();
  }

  @Test
  void aLeaseWithoutTimeoutNeverExpires() throws InterruptedException {
    assumeCapability(Capabilities.LEASE);
    MailAddress inbox = address("no-timeout");
    provider.post(letter(inbox, "a"));
    await("queued", () -> provider.status(inbox).unreadCount() == 1);
    Delivery held = provider.fetch(inbox, FetchOptions.leased(Duration.ZERO)).get(0);
    Thread.sleep(500);

    if (provider.supports(Capabilities.RECOVER)) {
      assertThat(provider.recover(inbox).reclaimed()).isZero();
    }
    assertThat(provider.fetch(inbox, FetchOptions.leased())).isEmpty();
    assertThat(provider.status(inbox).inFlightCount()).isEqualTo(1);
    assertThat(held.ack()).isTrue();
  }

  // ---- status and enumeration ---------------------------------------------------------------

  @Test
  void statusAndEnumerationDescribeAnAddressAlike() {
    assumeCapability(Capabilities.STATUS);
    assumeCapability(Capabilities.LEASE);
    MailAddress inbox = address("census");
    provider.post(letter(inbox, "a"));
    provider.post(letter(inbox, "b"));
    await("queued", () -> provider.status(inbox).unreadCount() == 2);
    Delivery held = provider.fetch(inbox, FetchOptions.leased()).get(0);

    AddressStatus status = provider.status(inbox);

    assertThat(status.address()).isEqualTo(inbox);
    assertThat(status.state()).isEqualTo(AddressState.ONLINE);
    assertThat(status.unreadCount()).isEqualTo(1);
    assertThat(status.inFlightCount()).isEqualTo(1);
    assertThat(status.lastActivity()).isNotNull();
    if (provider.supports(Capabilities.ENUMERATE)) {
      AddressStatus listed =
          provider.enumerate().orElseThrow().stream()
              .filter(s -> s.address().equals(inbox))
              .findFirst()
              .orElseThrow(() -> new AssertionError(inbox + " is not enumerated"));
      assertThat(listed.unreadCount()).isEqualTo(1);
      assertThat(listed.inFlightCount()).isEqualTo(1);
    }
    assertThat(held.ack()).isTrue();
  }
}
