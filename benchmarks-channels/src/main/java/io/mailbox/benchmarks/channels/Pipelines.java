package io.mailbox.benchmarks.channels;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Outgoing;

/**
 * The same pipeline twice: an incoming connector channel, an {@code @Incoming} → {@code @Outgoing}
 * processor and a sink that acknowledges, the acknowledgement travelling back through the processor
 * to the connector's message (for ours: the lease on the {@code mem:} address is settled). One
 * pipeline reads through our {@code mailbox} connector, the other through SmallRye's {@code
 * smallrye-in-memory} connector; only the incoming connector differs.
 */
@ApplicationScoped
public class Pipelines {
  // Static: the container hands out a client proxy, whose own fields are not the bean's.
  static final AtomicLong MAILBOX_RECEIVED = new AtomicLong();
  static final AtomicLong SMALLRYE_RECEIVED = new AtomicLong();

  @Incoming("mailbox-in")
  @Outgoing("mailbox-processed")
  public Message<String> processMailbox(Message<String> order) {
    return order.withPayload(order.getPayload().toUpperCase(java.util.Locale.ROOT));
  }

  @Incoming("mailbox-processed")
  public CompletionStage<Void> sinkMailbox(Message<String> order) {
    MAILBOX_RECEIVED.incrementAndGet();
    return order.ack();
  }

  @Incoming("smallrye-in")
  @Outgoing("smallrye-processed")
  public Message<String> processSmallRye(Message<String> order) {
    return order.withPayload(order.getPayload().toUpperCase(java.util.Locale.ROOT));
  }

  @Incoming("smallrye-processed")
  public CompletionStage<Void> sinkSmallRye(Message<String> order) {
    SMALLRYE_RECEIVED.incrementAndGet();
    return order.ack();
  }
}
