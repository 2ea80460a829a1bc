package io.mailbox.benchmarks.channels;

import io.mailbox.connector.kernel.Mailbox;
import java.util.Map;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * Where the two pipelines' incoming channels read from, and how a round puts its messages there:
 * {@link MemoryFeed} ({@code mem:} against SmallRye's in-memory connector), {@link RabbitMqFeed}
 * (the same RabbitMQ for both connectors) or {@link KafkaFeed} (the same Kafka broker for both).
 */
interface Feed extends AutoCloseable {

  /** What the printout calls the two sides. */
  String ours();

  String theirs();

  /** Registers the kernel's provider and sets the two incoming channels' configuration. */
  void configure(Mailbox kernel);

  /** Called once the container runs, before the first round. */
  void started(WeldContainer container) throws Exception;

  /** Puts {@code messages} where our connector's channel reads. */
  void feedOurs(int messages) throws Exception;

  /** Puts {@code messages} where SmallRye's connector's channel reads. */
  void feedTheirs(int messages) throws Exception;

  @Override
  default void close() throws Exception {}

  /** Sets the incoming channels: ours reads {@code ourAddress}, SmallRye's has {@code theirs}. */
  static void channels(String ourAddress, Map<String, String> theirs) {
    System.setProperty("mp.messaging.incoming.mailbox-in.address", ourAddress);
    theirs.forEach(
        (key, value) -> System.setProperty("mp.messaging.incoming.smallrye-in." + key, value));
  }
}
