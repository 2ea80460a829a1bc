package io.mailbox.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.tracing.MessageTracing;
import jakarta.ejb.EJBException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What an ack or a nack of a channel message does: a failure, a handler not ready yet, a stopping
 * channel, a store that cannot take the settlement.
 */
class IncomingMailboxMessageSettlementTest {
  private static final MailAddress PLACED = MailAddress.parse("jdbc:orders@shop/placed");
  private static final ChannelSettings SETTINGS =
      new ChannelSettings(
          "placed-orders",
          PLACED,
          "mailbox/ConnectionFactory",
          Duration.ofSeconds(30),
          16,
          3,
          Duration.ZERO,
          Duration.ZERO,
          Duration.ofMillis(100),
          Optional.empty(),
          ChannelSettings.Delivery.FETCH);

  private final List<Disposition> settled = new ArrayList<>();
  private final List<Delivery> handedOutAgain = new ArrayList<>();
  private boolean stopping;
  private RuntimeException settleFailure;
  private int slotsFreed;
  private final List<String> spanOutcomes = new ArrayList<>();

  @Test
  void anAckTheStoreCannotTakeStillFreesTheChannelsSlot() {
    // The database is down: the copy stays under its lease and comes back after it (the inbox
    // drops the repeat), but the channel must not count it in flight forever: that stalled a
    // channel for good after a PostgreSQL outage (16 such acks and it never fetched again).
    settleFailure = new IllegalStateException("connection refused");

    assertThat(message().ack()).isCompleted();

    assertThat(slotsFreed).isEqualTo(1);
  }

  @Test
  void aNackTheStoreCannotTakeStillFreesTheChannelsSlot() {
    settleFailure = new IllegalStateException("connection refused");

    assertThat(message().nack(new IllegalArgumentException("bad order"))).isCompleted();

    assertThat(slotsFreed).isEqualTo(1);
  }

  @Test
  void aSettledMessageFreesItsSlotOnce() {
    IncomingMailboxMessage message = message();
    message.ack();
    message.ack();
    message.nack(new IllegalArgumentException("late"));
    assertThat(settled).containsExactly(Disposition.HANDLED);
    assertThat(slotsFreed).isEqualTo(1);
    assertThat(spanOutcomes).as("its process span ends once").containsExactly("handled null");
  }

  @Test
  void aPlainFailureOfTheHandlerIsGivenUp() {
    message().nack(new IllegalArgumentException("bad order"));
    assertThat(settled).containsExactly(Disposition.DISCARD);
    assertThat(spanOutcomes).containsExactly("discard IllegalArgumentException");
  }

  @Test
  void aHandlerNotReadyYetIsHandedOutAgainUnsettled() {
    message()
        .nack(
            new IllegalStateException(
                new EJBException("Attempt to invoke when container is in Initializing")));
    assertThat(settled).isEmpty();
    assertThat(handedOutAgain).hasSize(1);
    assertThat(slotsFreed)
        .as("its slot is free while it waits to be handed out again")
        .isEqualTo(1);
  }

  @Test
  void aFailureWhileTheChannelStopsLeavesTheMessageToItsLease() {
    stopping = true;
    message().nack(new IllegalStateException("executor shut down"));
    assertThat(settled).as("never a dead letter while stopping").isEmpty();
    assertThat(handedOutAgain).isEmpty();
  }

  private IncomingMailboxMessage message() {
    Delivery delivery =
        new FakeDelivery(
            PLACED,
            "copy-1",
            disposition -> {
              if (settleFailure != null) {
                throw settleFailure;
              }
              settled.add(disposition);
              return true;
            });
    return new IncomingMailboxMessage(
        delivery,
        SETTINGS,
        (delay, task) -> task.run(),
        () -> slotsFreed++,
        new IncomingMailboxMessage.NotNow() {
          @Override
          public void handOutAgain(Delivery again) {
            handedOutAgain.add(again);
          }

          @Override
          public boolean stopping() {
            return stopping;
          }
        },
        new MessageTracing.TracedSpan() {
          @Override
          public Map<String, String> headers() {
            return Map.of();
          }

          @Override
          public MessageTracing.Scope makeCurrent() {
            return () -> {};
          }

          @Override
          public void end(String outcome, Throwable failure) {
            spanOutcomes.add(
                outcome + " " + (failure == null ? null : failure.getClass().getSimpleName()));
          }
        });
  }
}
