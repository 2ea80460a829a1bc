package io.mailbox.messaging;

import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.connector.api.RetriableDeliveryException;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Outgoing;

/** The channel methods the messaging IT drives, and what they observed. */
public final class ChannelBeans {
  private ChannelBeans() {}

  /** What the consumers saw (a pseudo-scoped singleton: no proxy, so plain fields are fine). */
  @Singleton
  public static class Observations {
    public final List<String> invoices = new CopyOnWriteArrayList<>();
    public final List<Integer> invoiceRounds = new CopyOnWriteArrayList<>();
    public final AtomicInteger fragileAttempts = new AtomicInteger();
    public final List<String> slow = new CopyOnWriteArrayList<>();
    public final AtomicInteger slowMaxInFlight = new AtomicInteger();
    public final List<String> fromRabbit = new CopyOnWriteArrayList<>();
    public final List<String> pushed = new CopyOnWriteArrayList<>();
  }

  /** Sends orders into the pipeline and into the transactional channel. */
  @ApplicationScoped
  public static class Senders {
    @Inject
    @Channel("orders-out")
    Emitter<String> orders;

    @Inject
    @Channel("transactional")
    Emitter<String> transactional;

    @Inject
    @Channel("to-rabbit")
    Emitter<String> toRabbit;

    public void toRabbit(String id) {
      toRabbit.send(OutgoingMailboxMessage.of("{\"shipment\":\"" + id + "\"}").withId(id));
    }

    public void order(String id) {
      orders.send(
          OutgoingMailboxMessage.of("{\"order\":\"" + id + "\"}")
              .withId(id)
              .withHeader("type", "placed"));
    }

    @Transactional
    public void sendAndCommit(String payload) {
      transactional.send(payload);
    }

    @Transactional
    public void sendAndRollBack(String payload) {
      transactional.send(payload);
      throw new IllegalStateException("roll back on purpose");
    }
  }

  /** orders -> invoices: turns each order into an invoice. */
  @ApplicationScoped
  public static class Billing {
    @Incoming("orders-in")
    @Outgoing("invoices-out")
    public String invoice(String order) {
      return order.replace("order", "invoice");
    }
  }

  /** The end of the pipeline. */
  @ApplicationScoped
  public static class InvoiceSink {
    @Inject Observations observations;

    @Incoming("invoices-in")
    public CompletionStage<Void> record(Message<String> invoice) {
      observations.invoices.add(invoice.getPayload());
      observations.invoiceRounds.add(IncomingMailboxMessage.of(invoice).orElseThrow().round());
      return invoice.ack();
    }
  }

  /** Always fails retriably: after max-attempts rounds the message is dead-lettered. */
  @ApplicationScoped
  public static class Fragile {
    @Inject Observations observations;

    @Incoming("fragile")
    public void consume(String payload) {
      observations.fragileAttempts.incrementAndGet();
      throw new RetriableDeliveryException("upstream down");
    }

    /** The compensation worker crashes too: its give-up parks the record. */
    @Incoming("fragile-dead-letters")
    public void compensate(String payload) {
      throw new IllegalStateException("compensation failed");
    }
  }

  /** Consumes what plain AMQP producers put in RabbitMQ. */
  @ApplicationScoped
  public static class RabbitConsumer {
    @Inject Observations observations;

    @Incoming("from-rabbit")
    public CompletionStage<Void> consume(Message<String> message) {
      IncomingMailboxMessage mail = IncomingMailboxMessage.of(message).orElseThrow();
      observations.fromRabbit.add(mail.messageId() + " " + message.getPayload());
      return message.ack();
    }
  }

  /** delivery=push: refuses each message's first round (retriably), takes the second. */
  @ApplicationScoped
  public static class PushedConsumer {
    @Inject Observations observations;

    @Incoming("pushed")
    public CompletionStage<Void> consume(Message<String> message) {
      IncomingMailboxMessage mail = IncomingMailboxMessage.of(message).orElseThrow();
      observations.pushed.add(mail.messageId() + " round " + mail.round());
      if (mail.round() == 1) {
        return message.nack(new RetriableDeliveryException("first round refused"));
      }
      return message.ack();
    }
  }

  /** Takes its time per message and records how many leases its address has out meanwhile. */
  @ApplicationScoped
  public static class SlowConsumer {
    @Inject Observations observations;

    @Resource(lookup = MailboxConnectionFactory.DEFAULT_JNDI_NAME)
    MailboxConnectionFactory connections;

    @Incoming("slow")
    public CompletionStage<Void> consume(Message<String> message) throws InterruptedException {
      try (MailboxConnection connection = connections.getConnection()) {
        long inFlight = connection.status("mem:it@rm/slow").inFlightCount();
        observations.slowMaxInFlight.accumulateAndGet((int) inFlight, Math::max);
      }
      Thread.sleep(20);
      observations.slow.add(message.getPayload());
      return message.ack().thenCompose(ignored -> CompletableFuture.completedFuture(null));
    }
  }
}
