package io.mailbox.server.scenarios;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;

/**
 * A trace collector for the tests: the OTLP/HTTP endpoint ({@code POST /v1/traces}, protobuf) a
 * server's OpenTelemetry exporter sends its spans to, on loopback, keeping every span it receives.
 * The server under test runs the exporter it ships; nothing of ours is in the application.
 */
final class TraceCollector implements AutoCloseable {
  /** One received span; ids in lowercase hex, the parent's empty for a root; kind as SERVER. */
  record ReceivedSpan(
      String traceId, String spanId, String parentSpanId, String name, String kind) {
    @Override
    public String toString() {
      return kind + " '" + name + "' " + traceId + "/" + spanId + " <- " + parentSpanId;
    }
  }

  private final HttpServer server;
  private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();

  TraceCollector() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
    server.createContext("/v1/traces", this::receive);
    server.start();
  }

  /** The endpoint to give {@code otel.exporter.otlp.traces.endpoint}. */
  String tracesEndpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/traces";
  }

  /** Every span received so far of trace {@code traceId}. */
  List<ReceivedSpan> trace(String traceId) {
    return spans.stream().filter(span -> span.traceId().equals(traceId)).toList();
  }

  private void receive(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!"POST".equals(exchange.getRequestMethod())) {
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      ExportTraceServiceRequest request;
      try (InputStream body = body(exchange)) {
        request = ExportTraceServiceRequest.parseFrom(body);
      }
      HexFormat hex = HexFormat.of();
      for (ResourceSpans resource : request.getResourceSpansList()) {
        for (ScopeSpans scope : resource.getScopeSpansList()) {
          for (Span span : scope.getSpansList()) {
            spans.add(
                new ReceivedSpan(
                    hex.formatHex(span.getTraceId().toByteArray()),
                    hex.formatHex(span.getSpanId().toByteArray()),
                    hex.formatHex(span.getParentSpanId().toByteArray()),
                    span.getName(),
                    span.getKind().name().replace("SPAN_KIND_", "")));
          }
        }
      }
      byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
      exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
      exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
      if (answer.length > 0) {
        exchange.getResponseBody().write(answer);
      }
    }
  }

  private static InputStream body(HttpExchange exchange) throws IOException {
    String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
    InputStream raw = exchange.getRequestBody();
    return "gzip".equalsIgnoreCase(encoding) ? new GZIPInputStream(raw) : raw;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
