package io.mailbox.connector.provider.kafka;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;

/**
 * A real single-node Kafka (KRaft: broker and controller in one) in the test JVM, started once per
 * test run from the Maven Central artifacts and stopped when the JVM ends. No Kafka is installed on
 * the machine and there is no Docker (../shared/PLATFORM.md, "Kafka for tests"). It logs where it
 * runs and how long it took to boot. {@link #restart} stops and starts it on the same ports and log
 * folder, for the broker-restart test. Published in this module's test jar: the server tests
 * ({@code server-config}'s KafkaChannelsIT) start the same broker for Payara Micro.
 */
public final class KafkaBroker {
  private static KafkaBroker shared;

  private final Path logDir;
  private final Path config;
  private final int brokerPort;
  private KafkaRaftServer server;

  private KafkaBroker() throws IOException {
    this.logDir = Files.createTempDirectory("mailbox-kafka-");
    this.brokerPort = freePort();
    int controllerPort = freePort();
    this.config = logDir.resolveSibling(logDir.getFileName() + ".properties");
    Properties properties = new Properties();
    properties.putAll(properties(brokerPort, controllerPort, logDir));
    try (var out = Files.newOutputStream(config)) {
      properties.store(out, "mailbox test broker");
    }
    ByteArrayOutputStream formatted = new ByteArrayOutputStream();
    StorageTool.execute(
        new String[] {"format", "-t", Uuid.randomUuid().toString(), "-c", config.toString()},
        new PrintStream(formatted, true, StandardCharsets.UTF_8));
  }

  /** The broker of this test run, started on first use. */
  public static synchronized KafkaBroker shared() {
    if (shared == null) {
      try {
        shared = new KafkaBroker();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      shared.start();
      Runtime.getRuntime().addShutdownHook(new Thread(shared::stop, "mailbox-kafka-stop"));
    }
    return shared;
  }

  public String bootstrapServers() {
    return "127.0.0.1:" + brokerPort;
  }

  /** Members of a share group that have partitions assigned; 0 while it has none (or no group). */
  int assignedShareMembers(String group) {
    Properties properties = new Properties();
    properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    try (Admin admin = Admin.create(properties)) {
      var description = admin.describeShareGroups(List.of(group)).all().get().get(group);
      return (int)
          description.members().stream()
              .filter(member -> !member.assignment().topicPartitions().isEmpty())
              .count();
    } catch (Exception notYet) {
      return 0;
    }
  }

  synchronized void start() {
    long started = System.nanoTime();
    Map<String, Object> map = new HashMap<>();
    try (var in = Files.newInputStream(config)) {
      Properties properties = new Properties();
      properties.load(in);
      properties.forEach((k, v) -> map.put((String) k, v));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server = new KafkaRaftServer(new KafkaConfig(map, false), Time.SYSTEM);
    server.startup();
    awaitAnswer(Duration.ofSeconds(60));
    System.out.printf(
        "KafkaBroker: Kafka 4.4.0 (KRaft, one node) on %s, logs in %s, ready in %d ms%n",
        bootstrapServers(), logDir, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
  }

  synchronized void stop() {
    if (server != null) {
      server.shutdown();
      server.awaitShutdown();
      server = null;
    }
  }

  private void awaitAnswer(Duration bound) {
    Properties properties = new Properties();
    properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    long deadline = System.nanoTime() + bound.toNanos();
    try (Admin admin = Admin.create(properties)) {
      while (true) {
        try {
          admin.describeCluster().nodes().get(2, TimeUnit.SECONDS);
          return;
        } catch (Exception notYet) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("The test Kafka broker did not answer", notYet);
          }
        }
      }
    }
  }

  private static Map<String, String> properties(int brokerPort, int controllerPort, Path logDir) {
    Map<String, String> p = new HashMap<>();
    p.put("process.roles", "broker,controller");
    p.put("node.id", "1");
    p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    p.put(
        "listeners",
        "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
    p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
    p.put("controller.listener.names", "CONTROLLER");
    p.put("inter.broker.listener.name", "PLAINTEXT");
    p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.put("log.dirs", logDir.toString());
    p.put("offsets.topic.replication.factor", "1");
    p.put("offsets.topic.num.partitions", "1");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("share.coordinator.state.topic.replication.factor", "1");
    p.put("share.coordinator.state.topic.min.isr", "1");
    p.put("group.initial.rebalance.delay.ms", "0");
    p.put("auto.create.topics.enable", "false");
    p.put("num.partitions", "1");
    // Share groups may take an acquisition lock as short as 1 s (KafkaQueueIT's stuck member).
    p.put("group.share.min.record.lock.duration.ms", "1000");
    return p;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
