package io.mailbox.server.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.server.scenarios.TraceCollector.ReceivedSpan;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The scenarios on Payara Micro: the rar and the wars, started by the README's script, with
 * MicroProfile Telemetry on and its OTLP exporter sending to a {@link TraceCollector}: every
 * scenario then also shows that tracing changes nothing, and one follows a request's trace.
 */
class PayaraMicroScenariosIT extends DeploymentScenarios {
  private TraceCollector collector;

  @Override
  Deployment start() throws Exception {
    Path data = ServerScript.freshData("payara-micro");
    int port = ServerScript.freePort();
    collector = new TraceCollector();
    // The server keeps running after the script returns (--detach): it is stopped by its pid.
    AutoCloseable stop =
        () -> {
          try {
            stopByPid(data.resolve("payara-micro.pid"));
          } finally {
            collector.close();
          }
        };
    try {
      ServerScript.run(
          "server-config/payara-micro/start-micro.sh",
          Map.of(
              "MAILBOX_HTTP_PORT",
              Integer.toString(port),
              "MAILBOX_DATA",
              data.toString(),
              "MAILBOX_JAVA_OPTS",
              telemetryOn(collector)),
          6,
          "--detach");
    } catch (Throwable failed) {
      stop.close();
      throw failed;
    }
    return new Deployment("Payara Micro", URI.create("http://localhost:" + port), stop);
  }

  /** MicroProfile Telemetry on, exporting spans over OTLP/HTTP to the collector, fast. */
  private static String telemetryOn(TraceCollector collector) {
    return String.join(
        " ",
        "-Dotel.sdk.disabled=false",
        "-Dotel.service.name=mailbox-scenarios",
        "-Dotel.traces.exporter=otlp",
        "-Dotel.exporter.otlp.traces.protocol=http/protobuf",
        "-Dotel.exporter.otlp.traces.endpoint=" + collector.tracesEndpoint(),
        "-Dotel.metrics.exporter=none",
        "-Dotel.logs.exporter=none",
        "-Dotel.bsp.schedule.delay=200");
  }

  @Test
  @Order(2)
  void aTracedRequestsOrderIsRelayedAndConsumedInTheRequestsTrace() throws Exception {
    HexFormat hex = HexFormat.of();
    SecureRandom random = new SecureRandom();
    byte[] ids = new byte[24];
    random.nextBytes(ids);
    String traceId = hex.formatHex(ids, 0, 16);
    String callerSpan = hex.formatHex(ids, 16, 24);
    HttpResponse<String> placed =
        send(
            request("/orders-app/api/orders?item=traced&quantity=1&fail=false")
                .header("traceparent", "00-" + traceId + "-" + callerSpan + "-01")
                .POST(HttpRequest.BodyPublishers.noBody())
                .build());
    assertThat(placed.statusCode()).as(placed.body()).isEqualTo(202);

    // The outbox row is written in the request; the relay publishes it later on its own thread
    // and the channel consumes it on another: all three in the caller's trace.
    String placedAddress = "jdbc://orders@shop/placed";
    Instant deadline = Instant.now().plus(DELIVERY);
    Optional<ReceivedSpan> publish = Optional.empty();
    Optional<ReceivedSpan> process = Optional.empty();
    List<ReceivedSpan> trace = List.of();
    while (Instant.now().isBefore(deadline) && process.isEmpty()) {
      TimeUnit.MILLISECONDS.sleep(250);
      trace = collector.trace(traceId);
      publish = span(trace, "PRODUCER", "publish " + placedAddress);
      ReceivedSpan producer = publish.orElse(null);
      process =
          span(trace, "CONSUMER", "process " + placedAddress)
              .filter(p -> producer != null && p.parentSpanId().equals(producer.spanId()));
    }
    assertThat(process)
        .as("the consumer's span, a child of the relay's publish: " + trace)
        .isPresent();
    List<ReceivedSpan> spans = trace;
    ReceivedSpan server =
        spans.stream()
            .filter(s -> s.kind().equals("SERVER") && s.parentSpanId().equals(callerSpan))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no server span of the request in " + spans));
    assertThat(publish.orElseThrow().parentSpanId())
        .as("the relay's publish continues the request that wrote the row")
        .isNotEmpty()
        .isIn(trace.stream().map(ReceivedSpan::spanId).toList());
    assertThat(server.traceId()).isEqualTo(traceId);
    assertThat(span(trace, "PRODUCER", "publish jdbc://shipping@shop/orders"))
        .as("the outbox channel's row too")
        .isPresent();
    // The processor's @Outgoing send happens while its process span is current: the invoice it
    // sends belongs to the same trace, a child of that span.
    ReceivedSpan consumer = process.orElseThrow();
    assertThat(
            awaitSpan(traceId, "PRODUCER", "publish jdbc://billing@shop/invoices").parentSpanId())
        .isEqualTo(consumer.spanId());
  }

  private ReceivedSpan awaitSpan(String traceId, String kind, String name) throws Exception {
    Instant deadline = Instant.now().plus(DELIVERY);
    while (Instant.now().isBefore(deadline)) {
      Optional<ReceivedSpan> found = span(collector.trace(traceId), kind, name);
      if (found.isPresent()) {
        return found.get();
      }
      TimeUnit.MILLISECONDS.sleep(250);
    }
    throw new AssertionError("no " + kind + " '" + name + "' in " + collector.trace(traceId));
  }

  private static Optional<ReceivedSpan> span(List<ReceivedSpan> trace, String kind, String name) {
    return trace.stream().filter(s -> s.kind().equals(kind) && s.name().equals(name)).findFirst();
  }

  static void stopByPid(Path pidFile) throws Exception {
    if (Files.exists(pidFile)) {
      long pid = Long.parseLong(Files.readString(pidFile).strip());
      ProcessHandle.of(pid)
          .ifPresent(
              server -> {
                server.destroy();
                server.onExit().orTimeout(60, TimeUnit.SECONDS).join();
              });
    }
  }
}
