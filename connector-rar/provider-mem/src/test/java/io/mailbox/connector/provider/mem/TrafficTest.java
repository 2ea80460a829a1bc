package io.mailbox.connector.provider.mem;

import static io.mailbox.connector.provider.mem.MemoryRig.INBOX;
import static io.mailbox.connector.provider.mem.MemoryRig.INBOX_DLQ;
import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.AddressTraffic;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.DeadLetterPolicy;
import io.mailbox.connector.kernel.RetryPolicy;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The kernel's traffic counters where the kit cannot reach on every provider: a retry policy's
 * redeliveries, archiving, parking at the end of the chain, and the bound on distinct addresses.
 */
class TrafficTest {
  private final MemoryRig rig = new MemoryRig();

  private AddressTraffic traffic(String address) {
    return rig.provider.traffic().stream()
        .filter(counted -> counted.address().equals(address))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no counters for " + address));
  }

  @Test
  void aRetryPolicysRedeliveriesAreCountedAsRetries() {
    rig.provider.setRetryPolicy(RetryPolicy.of(3, Duration.ofSeconds(1)));
    rig.provider.subscribe(INBOX, ScriptedSubscriber.recoveringAfter(2));

    rig.post("a");
    rig.advance(Duration.ofSeconds(10)); // past both backoffs

    AddressTraffic counted = traffic(INBOX.toString());
    assertThat(counted.posted()).isEqualTo(1);
    assertThat(counted.delivered()).as("one hand-out, three attempts").isEqualTo(1);
    assertThat(counted.retried()).isEqualTo(2);
    assertThat(counted.acknowledged()).isEqualTo(1);
    assertThat(counted.deadLettered() + counted.dropped() + counted.parked()).isZero();
  }

  @Test
  void exhaustedRetriesRequeueTheCopyAndTheRequeueIsARetryToo() {
    rig.provider.setRetryPolicy(RetryPolicy.of(3, Duration.ofSeconds(1)));
    rig.provider.subscribe(INBOX, ScriptedSubscriber.failingRetriably());

    rig.post("a");
    rig.advance(Duration.ofSeconds(10));

    AddressTraffic counted = traffic(INBOX.toString());
    assertThat(counted.retried()).as("two redeliveries, then back to the queue").isEqualTo(3);
    assertThat(counted.acknowledged() + counted.deadLettered()).isZero();
  }

  @Test
  void aFatalFailureIsCountedAsADeadLetterAtItsSourceNotAsAPostToTheArchive() {
    rig.provider.enableDeadLetterQueue(DeadLetterPolicy.defaults());
    rig.provider.subscribe(INBOX, ScriptedSubscriber.failingFatally());

    rig.post("a");

    assertThat(traffic(INBOX.toString()).deadLettered()).isEqualTo(1);
    assertThat(rig.provider.traffic())
        .as("the archived copy is no post of its own")
        .noneMatch(counted -> counted.address().equals(INBOX_DLQ.toString()));
  }

  @Test
  void aRecordGivenUpAtTheEndOfTheChainIsCountedAsParked() {
    rig.provider.enableDeadLetterQueue(DeadLetterPolicy.defaults());
    rig.post("a");
    rig.provider.fetch(INBOX, FetchOptions.leased()).get(0).settle(Disposition.DISCARD);
    rig.provider.fetch(INBOX_DLQ, FetchOptions.leased()).get(0).settle(Disposition.DISCARD);

    assertThat(traffic(INBOX.toString()).deadLettered()).isEqualTo(1);
    assertThat(traffic(INBOX_DLQ.toString()).parked()).isEqualTo(1);
    assertThat(traffic(INBOX_DLQ.toString()).delivered()).isEqualTo(1);
  }

  @Test
  void pastTheBoundOnAddressesTheCountsAreSummedAsOtherNotDropped() {
    int addresses = 1_005;
    for (int i = 0; i < addresses; i++) {
      rig.provider.post(
          MailMessage.to(MailAddress.parse("mem:sales@bus/a" + i)).body("{}").build());
    }

    List<AddressTraffic> counted = rig.provider.traffic();
    assertThat(counted).hasSize(1_001);
    assertThat(counted.get(counted.size() - 1).address()).isEqualTo(AddressTraffic.OTHER);
    assertThat(counted.get(counted.size() - 1).posted()).isEqualTo(5);
    assertThat(counted.stream().mapToLong(AddressTraffic::posted).sum()).isEqualTo(addresses);
  }
}
