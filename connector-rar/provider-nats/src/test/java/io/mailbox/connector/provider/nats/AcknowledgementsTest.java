package io.mailbox.connector.provider.nats;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailAddress;
import io.nats.client.Connection;
import io.nats.client.Message;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A reader's batch counts its acknowledgements as unconfirmed until the server answers the one
 * request that confirms them all, without waiting for that answer. Over a stand-in connection whose
 * answers the test gives by hand.
 */
class AcknowledgementsTest {
  private static final MailAddress ORDERS = MailAddress.parse("nats://orders@shop/acks");

  private final Acknowledgements acknowledgements = new Acknowledgements();
  private final List<CompletableFuture<Message>> answers = new ArrayList<>();
  private final List<String> acked = new ArrayList<>();
  private final Connection connection = connection();

  @Test
  void aBatchsAcknowledgementsCountUntilItsConfirmationIsAnswered() {
    acknowledgements.confirmBatch(
        () -> {
          acknowledgements.acked(ORDERS, message("1"));
          acknowledgements.acked(ORDERS, message("2"));
          assertThat(acknowledgements.unconfirmed(ORDERS)).isEqualTo(2);
        });
    assertThat(acked).containsExactly("1", "2");
    assertThat(answers).as("one confirmation for the batch").hasSize(1);
    assertThat(acknowledgements.unconfirmed(ORDERS))
        .as("the reader did not wait: still counted until the answer")
        .isEqualTo(2);

    answers.get(0).complete(null);
    assertThat(acknowledgements.unconfirmed(ORDERS)).isZero();
  }

  @Test
  void aConfirmationThatFailsStillTakesItsAcknowledgementsOff() {
    acknowledgements.confirmBatch(() -> acknowledgements.terminated(ORDERS, message("1")));
    answers.get(0).completeExceptionally(new java.util.concurrent.TimeoutException());
    assertThat(acknowledgements.unconfirmed(ORDERS)).isZero();
  }

  @Test
  void anAnswerAfterAStopLeavesTheCountsOfTheNextStartAlone() {
    acknowledgements.confirmBatch(
        () -> {
          acknowledgements.acked(ORDERS, message("1"));
          acknowledgements.acked(ORDERS, message("2"));
          acknowledgements.clear(); // the provider stops while the batch still runs
          acknowledgements.acked(ORDERS, message("3"));
        });
    answers.get(0).complete(null); // the stopped batch's answer comes late

    acknowledgements.confirmBatch(
        () -> {
          acknowledgements.acked(ORDERS, message("4"));
          acknowledgements.acked(ORDERS, message("5"));
          assertThat(acknowledgements.unconfirmed(ORDERS))
              .as("exactly the new batch's two, nothing taken off by the old answer")
              .isEqualTo(2);
        });
    answers.get(1).complete(null);
    assertThat(acknowledgements.unconfirmed(ORDERS)).isZero();
  }

  private Connection connection() {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "getStatus" -> Connection.Status.CONNECTED;
                  case "requestWithTimeout" -> {
                    CompletableFuture<Message> answer = new CompletableFuture<>();
                    answers.add(answer);
                    yield answer;
                  }
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }

  private Message message(String name) {
    return (Message)
        Proxy.newProxyInstance(
            Message.class.getClassLoader(),
            new Class<?>[] {Message.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "getConnection" -> connection;
                  case "getReplyTo" -> "$JS.ACK.orders." + name;
                  case "ack", "term" -> {
                    acked.add(name);
                    yield null;
                  }
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }
}
