package io.mailbox.benchmarks.channels;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.Mailbox;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.provider.mem.MemoryProvider;
import io.smallrye.reactive.messaging.memory.InMemoryConnector;
import io.smallrye.reactive.messaging.memory.InMemorySource;
import jakarta.enterprise.inject.Any;
import org.jboss.weld.environment.se.WeldContainer;

/** In memory: our connector reads a {@code mem:} address, SmallRye its in-memory source. */
final class MemoryFeed implements Feed {
  private static final MailAddress ORDERS = MailAddress.parse("mem:bench@channels/orders");

  private Mailbox kernel;
  private InMemorySource<String> source;

  @Override
  public String ours() {
    return "mailbox connector on mem:";
  }

  @Override
  public String theirs() {
    return "SmallRye in-memory";
  }

  @Override
  public void configure(Mailbox kernel) {
    this.kernel = kernel;
    kernel.register(MailboxProvider.of(MemoryProvider.isolated()));
    System.setProperty("mp.messaging.incoming.mailbox-in.address", ORDERS.toString());
    System.setProperty("mp.messaging.incoming.smallrye-in.connector", InMemoryConnector.CONNECTOR);
  }

  @Override
  public void started(WeldContainer container) {
    source =
        container.select(InMemoryConnector.class, Any.Literal.INSTANCE).get().source("smallrye-in");
  }

  @Override
  public void feedOurs(int messages) {
    for (int i = 0; i < messages; i++) {
      kernel.post(MailMessage.to(ORDERS).id("order-" + i).body(ChannelBenchmark.order(i)).build());
    }
  }

  @Override
  public void feedTheirs(int messages) {
    for (int i = 0; i < messages; i++) {
      source.send(ChannelBenchmark.order(i));
    }
  }
}
