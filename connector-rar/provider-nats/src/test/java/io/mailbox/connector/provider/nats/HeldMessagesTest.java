package io.mailbox.connector.provider.nats;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.nats.client.Message;
import io.nats.client.impl.NatsMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The per-address counts a reader bounds itself by stay equal to what is held, however settled. */
class HeldMessagesTest {
  private static final MailAddress ORDERS = MailAddress.parse("nats://orders@shop/held");
  private static final MailAddress INVOICES = MailAddress.parse("nats://invoices@shop/held");

  private final HeldMessages held = new HeldMessages();

  @Test
  void countsFollowHoldsReleasesDropsAndClearPerAddress() {
    Message first = message();
    held.hold(copy(ORDERS, "a"), ORDERS, first);
    held.hold(copy(ORDERS, "b"), ORDERS, message());
    held.hold(copy(INVOICES, "c"), INVOICES, message());
    assertThat(held.count(ORDERS)).isEqualTo(2);
    assertThat(held.count(INVOICES)).isEqualTo(1);

    assertThat(held.release(copy(ORDERS, "b"))).isPresent();
    assertThat(held.release(copy(ORDERS, "b"))).as("settled already").isEmpty();
    assertThat(held.count(ORDERS)).isEqualTo(1);

    held.drop(first);
    held.drop(first); // a second drop finds nothing
    assertThat(held.count(ORDERS)).isZero();
    assertThat(held.count(INVOICES)).isEqualTo(1);
    held.hold(copy(ORDERS, "d"), ORDERS, message());
    assertThat(held.count(ORDERS)).as("nothing taken off twice").isEqualTo(1);
    held.release(copy(ORDERS, "d"));

    held.clear();
    assertThat(held.count(INVOICES)).isZero();
    assertThat(held.size()).isZero();
  }

  @Test
  void aCopyHeldAgainUnderAnotherAddressMovesItsCount() {
    held.hold(copy(ORDERS, "a"), ORDERS, message());
    held.hold(copy(ORDERS, "a"), INVOICES, message());
    assertThat(held.count(ORDERS)).isZero();
    assertThat(held.count(INVOICES)).isEqualTo(1);
  }

  @Test
  void concurrentHoldsAndSettlementsEndAtZero() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        running.add(
            threads.submit(
                () -> {
                  for (int i = 0; i < 5_000; i++) {
                    MailMessage copy = copy(ORDERS, thread + "-" + i);
                    Message message = message();
                    held.hold(copy, ORDERS, message);
                    if (i % 3 == 0) {
                      held.drop(message);
                    } else {
                      held.release(copy);
                    }
                  }
                }));
      }
      for (Future<?> each : running) {
        each.get();
      }
    } finally {
      threads.shutdown();
    }
    assertThat(held.count(ORDERS)).isZero();
    assertThat(held.size()).isZero();
  }

  @Test
  void aReleaseAndADropRacingForOneMessageTakeItOffOnce() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      for (int i = 0; i < 2_000; i++) {
        MailMessage copy = copy(ORDERS, "race-" + i);
        Message message = message();
        held.hold(copy, ORDERS, message);
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        Future<?> release = threads.submit(() -> awaitThen(go, () -> held.release(copy)));
        Future<?> drop = threads.submit(() -> awaitThen(go, () -> held.drop(message)));
        go.countDown();
        release.get();
        drop.get();
        assertThat(held.count(ORDERS)).as("after race " + i).isZero();
      }
    } finally {
      threads.shutdown();
    }
  }

  private static void awaitThen(java.util.concurrent.CountDownLatch go, Runnable then) {
    try {
      go.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    then.run();
  }

  private static MailMessage copy(MailAddress address, String sendId) {
    return MailMessage.to(address).body("{}").header(SystemHeaders.SEND_ID, sendId).build();
  }

  private static Message message() {
    return NatsMessage.builder().subject("held").data(new byte[0]).build();
  }
}
