package io.mailbox.tracing;

import io.mailbox.connector.api.TraceHeaders;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@link MessageTracing} on the application's OpenTelemetry (MicroProfile Telemetry). Spans follow
 * the OpenTelemetry messaging conventions: {@code publish <address>} (kind PRODUCER) and {@code
 * process <address>} (kind CONSUMER), with {@code messaging.system=mailbox}, {@code
 * messaging.destination.name}, {@code messaging.operation}, {@code messaging.message.id} and our
 * {@code mailbox.outcome}. Only the W3C trace context travels: the server's other propagators (W3C
 * baggage, say) are not used, so no caller data rides along unasked.
 */
final class OpenTelemetryTracing implements MessageTracing {
  static final String INSTRUMENTATION = "io.mailbox";
  private static final Logger LOG = Logger.getLogger(OpenTelemetryTracing.class.getName());

  private static final TextMapPropagator W3C = W3CTraceContextPropagator.getInstance();

  private static final TextMapGetter<Map<String, String>> HEADERS =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
          return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
          return carrier == null ? null : carrier.get(key);
        }
      };

  private final Tracer tracer;

  OpenTelemetryTracing(OpenTelemetry openTelemetry) {
    this.tracer = openTelemetry.getTracer(INSTRUMENTATION);
  }

  /** The application's tracing, or null when its CDI container has no OpenTelemetry bean. */
  static MessageTracing fromApplication() {
    Instance<OpenTelemetry> candidates = CDI.current().select(OpenTelemetry.class);
    return candidates.isResolvable() ? new OpenTelemetryTracing(candidates.get()) : null;
  }

  @Override
  public Map<String, String> currentContext() {
    return headersOf(Context.current());
  }

  @Override
  public TracedSpan startPublish(String destination, String messageId, Map<String, String> parent) {
    Context parentContext = parent == null ? Context.current() : extract(parent);
    return start("publish", SpanKind.PRODUCER, destination, messageId, parentContext);
  }

  @Override
  public TracedSpan startProcess(
      String destination, String messageId, Map<String, String> headers) {
    return start("process", SpanKind.CONSUMER, destination, messageId, extract(headers));
  }

  private TracedSpan start(
      String operation,
      SpanKind kind,
      String destination,
      String messageId,
      Context parentContext) {
    if (!Span.fromContext(parentContext).getSpanContext().isValid()) {
      return TracedSpan.NONE; // we continue traces, we never start one
    }
    SpanBuilder builder =
        tracer
            .spanBuilder(operation + " " + destination)
            .setParent(parentContext)
            .setSpanKind(kind)
            .setAttribute("messaging.system", "mailbox")
            .setAttribute("messaging.destination.name", destination)
            .setAttribute("messaging.operation", operation);
    if (messageId != null) {
      builder.setAttribute("messaging.message.id", messageId);
    }
    Span span = builder.startSpan();
    return new OpenSpan(span, parentContext.with(span));
  }

  private static Context extract(Map<String, String> headers) {
    return W3C.extract(Context.root(), headers, HEADERS);
  }

  private static Map<String, String> headersOf(Context context) {
    if (!Span.fromContext(context).getSpanContext().isValid()) {
      return Map.of();
    }
    Map<String, String> headers = new TreeMap<>();
    W3C.inject(context, headers, (carrier, name, value) -> carrier.put(name, value));
    // OpenTelemetry keeps a caller's tracestate it would not write itself (longer than 512
    // characters, say): one a post refuses. Tracing never costs a message: such a header is left
    // out, and without a well-formed traceparent there is no trace to continue.
    headers
        .entrySet()
        .removeIf(header -> !TraceHeaders.isWellFormed(header.getKey(), header.getValue()));
    return headers.containsKey(TraceHeaders.TRACEPARENT) ? Map.copyOf(headers) : Map.of();
  }

  private record OpenSpan(Span span, Context context) implements TracedSpan {
    @Override
    public Map<String, String> headers() {
      return headersOf(context);
    }

    @Override
    public Scope makeCurrent() {
      io.opentelemetry.context.Scope scope = context.makeCurrent();
      return scope::close;
    }

    @Override
    public void end(String outcome, Throwable failure) {
      try {
        span.setAttribute("mailbox.outcome", outcome);
        if (failure != null) {
          span.setStatus(StatusCode.ERROR, failure.getClass().getName());
        }
        span.end();
      } catch (RuntimeException e) {
        // A tracer's fault must never stop a settlement or a publish that follows the span.
        LOG.log(Level.FINE, "Could not end a span", e);
      }
    }

    @Override
    public String toString() {
      return "TracedSpan[" + span.getSpanContext().getSpanId() + "]";
    }
  }
}
