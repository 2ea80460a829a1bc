package io.mailbox.connector.tck;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.spi.Transport;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What every part of the conformance kit stands on: a started provider under the kernel's rules for
 * each test, fresh addresses, and the helpers the contract's tests share. The kit's tests are split
 * by topic ({@link DeliveryContract}: posting, the send boundary, dispositions; {@link
 * InspectionContract}: peek, removal, locate, parked records; {@link ProviderContract}: failures,
 * status, lifecycle and time); a provider runs all of them by extending {@link ProviderContract}.
 */
public abstract class ContractFixture {
  protected MailboxProvider provider;

  /** The transport under test, as {@link #newTransport()} made it for this test. */
  protected Transport transport;

  private final String run = UUID.randomUUID().toString().substring(0, 8);

  /** A new, not yet started transport; the kit puts it under the kernel's rules. */
  protected abstract Transport newTransport();

  /** How long an asynchronous transport may take to show an effect. */
  protected Duration eventually() {
    return Duration.ofSeconds(5);
  }

  /** A fresh address of the provider's scheme, unique to this test run. */
  protected MailAddress address(String name) {
    return MailAddress.parse(provider.scheme() + "://contract@test/" + name + "-" + run);
  }

  @BeforeEach
  void startProvider() {
    transport = newTransport();
    provider = MailboxProvider.of(transport);
    provider.start();
  }

  @AfterEach
  void stopProvider() {
    provider.stop(true);
  }

  protected static MailMessage letter(MailAddress to, String id) {
    return MailMessage.to(to).id(id).body("{\"id\":\"" + id + "\"}").build();
  }

  protected List<MailMessage> fetchAll(MailAddress address) {
    return provider.fetch(address, FetchOptions.autoAck().limit(100)).stream()
        .map(Delivery::message)
        .toList();
  }

  protected void await(String what, BooleanSupplier condition) {
    io.mailbox.connector.testsupport.Eventually.await(what, eventually(), condition);
  }

  protected void assumeCapability(String capability) {
    assumeTrue(
        provider.supports(capability), provider.scheme() + ": does not declare " + capability);
  }

  /** Skips a case unless the capability is declared and possible at {@code address}. */
  protected void assumeCanAt(String capability, MailAddress address) {
    assumeTrue(
        provider.can(capability, address),
        provider.scheme() + ": cannot " + capability + " at " + address);
  }

  protected Delivery queueOneAndLease(MailAddress inbox, String id) {
    provider.post(letter(inbox, id));
    await("queued", () -> provider.status(inbox).unreadCount() == 1);
    return provider.fetch(inbox, FetchOptions.leased()).get(0);
  }
}
