package io.mailbox.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.connector.api.SystemHeaders;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import java.io.File;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.jboss.shrinkwrap.resolver.api.maven.Maven;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Channels on a real Payara Micro with SmallRye Reactive Messaging bundled in the war (the shape
 * PLATFORM.md measured): the adapter is deployed by the production post-boot file.
 */
@ExtendWith(ArquillianExtension.class)
class ChannelsIT {

  @Deployment
  static WebArchive deployment() {
    return ShrinkWrap.create(WebArchive.class, "channels-it.war")
        .addClasses(ChannelBeans.class)
        .addClasses(ChannelBeans.class.getDeclaredClasses())
        .addAsLibraries(new File(System.getProperty("mailbox.connectorJar")))
        .addAsLibraries(new File(System.getProperty("mailbox.tracingJar")))
        .addAsLibraries(smallRyeReactiveMessaging())
        .addAsResource(
            "channels/microprofile-config.properties", "META-INF/microprofile-config.properties")
        .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml");
  }

  /** SmallRye and its dependencies, minus the APIs the server provides (PLATFORM.md). */
  private static File[] smallRyeReactiveMessaging() {
    File[] resolved =
        Maven.resolver()
            .resolve(
                "io.smallrye.reactive:smallrye-reactive-messaging-provider:"
                    + System.getProperty("smallrye.version"),
                "io.smallrye.reactive:mutiny-reactive-streams-operators:"
                    + System.getProperty("mutiny-operators.version"))
            .withTransitivity()
            .asFile();
    List<String> provided =
        List.of(
            "jakarta.enterprise.cdi-api",
            "jakarta.enterprise.lang-model",
            "jakarta.annotation-api",
            "jakarta.el-api",
            "jakarta.interceptor-api",
            "jakarta.inject-api",
            "microprofile-reactive-messaging-api");
    return Arrays.stream(resolved)
        .filter(jar -> provided.stream().noneMatch(api -> jar.getName().startsWith(api + "-")))
        .toArray(File[]::new);
  }

  @Inject ChannelBeans.Senders senders;
  @Inject ChannelBeans.Observations observations;

  @Resource(lookup = MailboxConnectionFactory.DEFAULT_JNDI_NAME)
  MailboxConnectionFactory connections;

  private AddressStatus status(String address) {
    try (MailboxConnection connection = connections.getConnection()) {
      return connection.status(address);
    }
  }

  private void post(String address, String id) {
    try (MailboxConnection connection = connections.getConnection()) {
      connection.post(MailMessage.to(address).id(id).body(id).build());
    }
  }

  private static Throwable rootCause(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root;
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
    while (!condition.getAsBoolean()) {
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError("Timed out waiting until " + what);
      }
      Thread.sleep(20);
    }
  }

  /** Publishes as a plain AMQP producer would, to the provider's queue for the address. */
  private static void publishPlain(String queue, String id, String body) throws Exception {
    try (com.rabbitmq.client.Connection connection = rabbit();
        com.rabbitmq.client.Channel channel = connection.createChannel()) {
      // The same declaration the provider makes, so it exists whoever comes first.
      channel.queueDeclare(queue, true, false, false, java.util.Map.of("x-queue-type", "quorum"));
      channel.basicPublish(
          "",
          queue,
          new com.rabbitmq.client.AMQP.BasicProperties.Builder().messageId(id).build(),
          body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
  }

  private static com.rabbitmq.client.Connection rabbit() throws Exception {
    com.rabbitmq.client.ConnectionFactory factory = new com.rabbitmq.client.ConnectionFactory();
    factory.setUri("amqp://guest:guest@127.0.0.1:5672/%2F");
    return factory.newConnection("channels-it");
  }

  @Test
  void aMessageFromAPlainAmqpProducerIsConsumedThroughAnIncomingChannel() throws Exception {
    String id = "plain-" + System.nanoTime();
    publishPlain("it@rm/from-rabbit", id, "{\"parcel\":7}");

    await(
        "the @Incoming method got it",
        () -> observations.fromRabbit.contains(id + " {\"parcel\":7}"));
    await(
        "acknowledged in RabbitMQ",
        () -> {
          AddressStatus status = status("amqp:it@rm/from-rabbit");
          return status.unreadCount() == 0 && status.inFlightCount() == 0;
        });
  }

  @Test
  void aPushedChannelTakesWhatRabbitMqPushesAndANackComesBackARoundLater() throws Exception {
    String id = "pushed-" + System.nanoTime();
    publishPlain("it@rm/pushed", id, "{\"parcel\":8}");

    await(
        "refused in round 1, taken in round 2",
        () -> observations.pushed.containsAll(List.of(id + " round 1", id + " round 2")));
    await(
        "acknowledged in RabbitMQ, nothing left in its retry queue",
        () -> {
          AddressStatus status = status("amqp:it@rm/pushed");
          return status.unreadCount() == 0 && status.inFlightCount() == 0;
        });
    assertEquals(
        2, observations.pushed.stream().filter(line -> line.startsWith(id)).count(), "deliveries");
  }

  @Test
  void aMessageSentThroughAnOutgoingChannelIsReadByAPlainAmqpConsumer() throws Exception {
    String id = "out-" + System.nanoTime();
    senders.toRabbit(id);

    List<String> seen = new java.util.ArrayList<>();
    await(
        "a plain consumer reads it",
        () -> {
          try (com.rabbitmq.client.Connection connection = rabbit();
              com.rabbitmq.client.Channel channel = connection.createChannel()) {
            for (com.rabbitmq.client.GetResponse got;
                (got = channel.basicGet("it@rm/to-rabbit", true)) != null; ) {
              seen.add(
                  got.getProps().getMessageId()
                      + " "
                      + new String(got.getBody(), java.nio.charset.StandardCharsets.UTF_8));
            }
          } catch (Exception e) {
            return false; // the queue is declared with the first send
          }
          return seen.contains(id + " {\"shipment\":\"" + id + "\"}");
        });
  }

  @Test
  void aPipelineDeliversInOrderAndAcknowledgesEverything() throws Exception {
    IntStream.range(0, 20).forEach(i -> senders.order("o" + i));

    await("twenty invoices", () -> observations.invoices.size() == 20);
    List<String> expected =
        IntStream.range(0, 20).mapToObj(i -> "{\"invoice\":\"o" + i + "\"}").toList();
    assertEquals(expected, observations.invoices);
    assertTrue(
        observations.invoiceRounds.stream().allMatch(round -> round == 1), "each handed out once");
    await(
        "nothing left in flight",
        () ->
            status("mem:it@rm/orders").inFlightCount() == 0
                && status("mem:it@rm/invoices").inFlightCount() == 0);
    assertEquals(0, status("mem:it@rm/orders").unreadCount());
    assertEquals(0, status("mem:it@rm/invoices").unreadCount());
  }

  @Test
  void aThousandOrdersFlowThroughThePipelineAndNoneIsLost() throws Exception {
    int before = observations.invoices.size();
    long start = System.nanoTime();

    IntStream.range(0, 1000).forEach(i -> senders.order("bulk-" + i));

    await("a thousand more invoices", () -> observations.invoices.size() == before + 1000);
    double seconds = (System.nanoTime() - start) / 1e9;
    // A figure for the issue notes, not a benchmark: two hops (emitter -> processor -> sink).
    System.out.printf(
        "PIPELINE: 1000 orders through two mailbox hops in %.2f s (%.0f/s)%n",
        seconds, 1000 / seconds);
    assertEquals(
        1000,
        observations.invoices.stream()
            .filter(invoice -> invoice.contains("bulk-"))
            .distinct()
            .count());
  }

  @Test
  void anEmitterInsideACommittedTransactionDeliversAndARolledBackOneDoesNot() throws Exception {
    long before = status("mem:it@rm/transactional").unreadCount();

    senders.sendAndCommit("committed");
    RuntimeException rolledBack =
        org.junit.jupiter.api.Assertions.assertThrows(
            RuntimeException.class, () -> senders.sendAndRollBack("rolled-back"));
    assertTrue(
        rootCause(rolledBack).getMessage().contains("roll back on purpose"), rolledBack.toString());
    senders.sendAndCommit("committed-after");

    await(
        "both committed ones are queued",
        () -> status("mem:it@rm/transactional").unreadCount() == before + 2);
    Thread.sleep(300);
    assertEquals(
        before + 2,
        status("mem:it@rm/transactional").unreadCount(),
        "the rolled-back one never arrives");
    try (MailboxConnection connection = connections.getConnection()) {
      List<String> bodies =
          connection.peek("mem:it@rm/transactional", 100).stream().map(MailMessage::body).toList();
      assertTrue(
          bodies.contains("committed") && bodies.contains("committed-after"), bodies.toString());
      assertTrue(!bodies.contains("rolled-back"), bodies.toString());
    }
  }

  @Test
  void aFailingConsumerIsRetriedThenDeadLetteredAndAFailingCompensationParksTheRecord()
      throws Exception {
    post("mem:it@rm/fragile", "poison");

    await(
        "parked after the compensation failed",
        () -> {
          Object parked = status("mem:it@rm/fragile_dlq").extensions().get("mem.parkedCount");
          return parked instanceof Number n && n.intValue() == 1;
        });
    assertEquals(3, observations.fragileAttempts.get(), "max-attempts rounds, then given up");
    assertEquals(0, status("mem:it@rm/fragile").unreadCount());
    assertEquals(0, status("mem:it@rm/fragile_dlq").unreadCount(), "a parked record is not unread");
    try (MailboxConnection connection = connections.getConnection()) {
      MailMessage parked = connection.peekParked("mem:it@rm/fragile_dlq", 10).get(0);
      assertEquals("poison", parked.id());
      assertEquals("true", parked.header(SystemHeaders.DEAD_LETTER_TERMINAL).orElse(""));
      assertEquals(
          "mem://it@rm/fragile", parked.to().toString(), "keeps its original address for replay");
    }
  }

  @Test
  void aSlowConsumerNeverHoldsMoreThanItsWindow() throws Exception {
    IntStream.range(0, 40).forEach(i -> post("mem:it@rm/slow", "s" + i));

    await("all forty consumed", () -> observations.slow.size() == 40);
    assertTrue(
        observations.slowMaxInFlight.get() <= 4,
        "max in flight was " + observations.slowMaxInFlight.get());
    assertTrue(observations.slowMaxInFlight.get() >= 1);
  }
}
