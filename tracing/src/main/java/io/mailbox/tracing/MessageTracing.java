package io.mailbox.tracing;

import io.mailbox.connector.api.MailMessage;
import java.util.Map;

/**
 * Continues a W3C trace through messages (docs/observability.md, "Traces"). A post made inside a
 * traced request carries the request's trace context as {@code traceparent} / {@code tracestate};
 * the outbox stores the writer's context in the row, so the relay's publish, which runs later on
 * another thread, still belongs to the request's trace; a consumer continues it in a span of its
 * own. We continue traces and never start one: a message sent outside any trace gets no span.
 *
 * <p>Backed by the server's MicroProfile Telemetry ({@link #lookup()}); where the server has none
 * (WildFly without its OpenTelemetry subsystem) or it is disabled, every method does nothing and
 * the messages carry whatever trace context they already had.
 */
public interface MessageTracing {

  /** Tracing that does nothing: no spans, no headers. */
  MessageTracing NONE =
      new MessageTracing() {
        @Override
        public Map<String, String> currentContext() {
          return Map.of();
        }

        @Override
        public TracedSpan startPublish(
            String destination, String messageId, Map<String, String> parent) {
          return TracedSpan.NONE;
        }

        @Override
        public TracedSpan startProcess(
            String destination, String messageId, Map<String, String> headers) {
          return TracedSpan.NONE;
        }
      };

  /**
   * The tracing of the calling application: OpenTelemetry when the server provides it to the
   * application, {@link #NONE} otherwise. Call it on an application thread (a request, a managed
   * executor, a channel): the adapter's own threads have no tracer.
   */
  static MessageTracing lookup() {
    return TracingLookup.current();
  }

  /** The calling thread's trace context as trace headers; empty outside a trace. */
  Map<String, String> currentContext();

  /**
   * Starts the span of a publish to {@code destination}, a child of {@code parent} (trace headers,
   * such as those an outbox row stored) or, when {@code parent} is null, of the calling thread's
   * context. {@link TracedSpan#NONE} when that parent is no trace.
   */
  TracedSpan startPublish(String destination, String messageId, Map<String, String> parent);

  /**
   * Starts the span of processing a message taken from {@code destination} that carries {@code
   * headers}, a child of the trace context among them. {@link TracedSpan#NONE} when they carry none
   * (or a malformed one).
   */
  TracedSpan startProcess(String destination, String messageId, Map<String, String> headers);

  /** One span of ours. */
  interface TracedSpan {
    /** No span: no headers, nothing current, nothing to end. */
    TracedSpan NONE =
        new TracedSpan() {
          @Override
          public Map<String, String> headers() {
            return Map.of();
          }

          @Override
          public Scope makeCurrent() {
            return () -> {};
          }

          @Override
          public void end(String outcome, Throwable failure) {}
        };

    /** The trace headers a message sent under this span carries (its context); empty: none. */
    Map<String, String> headers();

    /**
     * {@code message} carrying this span's trace headers; the message itself when there are none
     * (no trace, or no tracer here), so a context it already carries travels as it is.
     */
    default MailMessage carriedBy(MailMessage message) {
      Map<String, String> headers = headers();
      if (headers.isEmpty()) {
        return message;
      }
      MailMessage.Builder traced = message.toBuilder();
      headers.forEach(traced::header);
      return traced.build();
    }

    /** Makes this span the calling thread's current one until the scope is closed. */
    Scope makeCurrent();

    /**
     * Ends the span with {@code outcome} (handled, unhandled, discarded, published, failed); a
     * {@code failure} marks it as an error, named by its class only (a message may hold data).
     */
    void end(String outcome, Throwable failure);
  }

  /** While open, a span is current. */
  interface Scope extends AutoCloseable {
    @Override
    void close();
  }
}
