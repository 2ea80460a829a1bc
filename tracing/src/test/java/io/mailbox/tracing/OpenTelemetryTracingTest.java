package io.mailbox.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.tracing.MessageTracing.Scope;
import io.mailbox.tracing.MessageTracing.TracedSpan;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The spans and headers of {@link OpenTelemetryTracing}, on a real SDK exporting to memory. */
class OpenTelemetryTracingTest {
  private static final String SECRET = "card-4111";

  private final InMemorySpanExporter exported = InMemorySpanExporter.create();
  private final SdkTracerProvider tracerProvider =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exported)).build();
  private final OpenTelemetrySdk sdk =
      OpenTelemetrySdk.builder().setTracerProvider(tracerProvider).build();
  private final MessageTracing tracing = new OpenTelemetryTracing(sdk);

  @AfterEach
  void close() {
    tracerProvider.close();
  }

  @Test
  void outsideATraceNothingIsStartedAndNoHeaderIsWritten() {
    assertThat(tracing.currentContext()).isEmpty();
    TracedSpan publish = tracing.startPublish("mem:a@b/c", "m-1", null);
    assertThat(publish).isSameAs(TracedSpan.NONE);
    assertThat(tracing.startProcess("mem:a@b/c", "m-1", Map.of("tenant", "eu")))
        .isSameAs(TracedSpan.NONE);
    assertThat(tracing.startProcess("mem:a@b/c", "m-1", Map.of("traceparent", "00-" + SECRET)))
        .as("a malformed context is no trace")
        .isSameAs(TracedSpan.NONE);
    assertThat(exported.getFinishedSpanItems()).isEmpty();
  }

  @Test
  void aPublishInsideARequestIsItsChildAndTheMessageCarriesThePublishSpan() {
    Span request = sdk.getTracer("test").spanBuilder("POST /orders").startSpan();
    TracedSpan publish;
    try (var scope = request.makeCurrent()) {
      assertThat(tracing.currentContext().get("traceparent"))
          .contains(request.getSpanContext().getTraceId());
      publish = tracing.startPublish("jdbc:orders@shop/placed", "order-1", null);
    } finally {
      request.end();
    }
    publish.end("published", null);

    SpanData span = only("publish jdbc:orders@shop/placed");
    assertThat(span.getKind()).isEqualTo(SpanKind.PRODUCER);
    assertThat(span.getParentSpanId()).isEqualTo(request.getSpanContext().getSpanId());
    assertThat(span.getTraceId()).isEqualTo(request.getSpanContext().getTraceId());
    assertThat(span.getAttributes().asMap().toString())
        .contains("messaging.system=mailbox", "messaging.message.id=order-1", "published");
    assertThat(publish.headers().get("traceparent"))
        .isEqualTo("00-" + span.getTraceId() + "-" + span.getSpanId() + "-01");
  }

  @Test
  void aRelayPublishContinuesTheContextTheRowStoredOnAnotherThreadLater() {
    Span writer = sdk.getTracer("test").spanBuilder("write").startSpan();
    Map<String, String> stored;
    try (var scope = writer.makeCurrent()) {
      stored = tracing.currentContext();
    } finally {
      writer.end();
    }
    assertThat(Span.current().getSpanContext().isValid()).as("no trace here").isFalse();

    TracedSpan publish = tracing.startPublish("jdbc:orders@shop/placed", "order-1", stored);
    publish.end("published", null);

    SpanData span = only("publish jdbc:orders@shop/placed");
    assertThat(span.getParentSpanId()).isEqualTo(writer.getSpanContext().getSpanId());
  }

  @Test
  void aConsumerContinuesTheMessagesTraceIsCurrentWhileHandlingAndNamesOnlyTheFailuresClass() {
    String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    Map<String, String> headers =
        Map.of("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01", "tenant", "eu");
    TracedSpan process = tracing.startProcess("jdbc:orders@shop/placed", "order-1", headers);
    try (Scope scope = process.makeCurrent()) {
      assertThat(Span.current().getSpanContext().getTraceId()).isEqualTo(traceId);
      // what the handler sends from here belongs to the same trace
      TracedSpan reply = tracing.startPublish("jdbc:billing@shop/invoices", "inv-1", null);
      reply.end("published", null);
    }
    assertThat(Context.current()).isSameAs(Context.root());
    process.end("unhandled", new IllegalStateException(SECRET));

    SpanData span = only("process jdbc:orders@shop/placed");
    assertThat(span.getKind()).isEqualTo(SpanKind.CONSUMER);
    assertThat(span.getTraceId()).isEqualTo(traceId);
    assertThat(span.getParentSpanId()).isEqualTo("00f067aa0ba902b7");
    assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(span.getStatus().getDescription()).isEqualTo("java.lang.IllegalStateException");
    assertThat(span.toString()).doesNotContain(SECRET);
    assertThat(only("publish jdbc:billing@shop/invoices").getParentSpanId())
        .isEqualTo(span.getSpanId());
  }

  @Test
  void aTracestateAPostWouldRefuseIsLeftOutTheTraceGoesOn() {
    String parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    Map<String, String> incoming =
        Map.of(
            "traceparent", parent, "tracestate", "a=" + "x".repeat(250) + ",b=" + "y".repeat(300));
    TracedSpan process = tracing.startProcess("mem://a@b/c", "m-1", incoming);
    Map<String, String> sent = process.headers();
    process.end("handled", null);

    assertThat(sent).containsOnlyKeys("traceparent");
    assertThat(sent.get("traceparent")).contains("4bf92f3577b34da6a3ce929d0e0e4736");
  }

  @Test
  void outsideAContainerTheLookupAnswersNoTracingWithoutFailing() {
    assertThat(MessageTracing.lookup()).isSameAs(MessageTracing.NONE);
  }

  private SpanData only(String name) {
    List<SpanData> spans =
        exported.getFinishedSpanItems().stream().filter(s -> s.getName().equals(name)).toList();
    assertThat(spans).as(name).hasSize(1);
    return spans.get(0);
  }
}
