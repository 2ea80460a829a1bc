package io.mailbox.connector.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.PublishOptions;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * The publish option rules under generated input (issue 18): whatever keys and headers a caller
 * sets, a post is either stored with all of them or refused with {@code MBX-1004} before anything
 * is stored, the refusal names the rule and never repeats a value, and the outcome is exactly what
 * the documented rules say.
 */
class PublishOptionsFuzzTest {
  private static final String SECRET = "s3cr3t";
  private static final MailAddress TO = MailAddress.parse("count://a@b/c");
  private static final AtomicInteger SENT = new AtomicInteger();
  private static MailboxProvider provider;

  @BeforeContainer
  static void start() {
    provider = MailboxProvider.of(new Counting());
    provider.start();
  }

  @AfterContainer
  static void stop() {
    provider.stop(false);
  }

  @Property(tries = 10_000)
  void aPostIsStoredWithItsOptionsOrRefusedBeforeAnythingIsStoredNeverEchoingAValue(
      @ForAll("headers") Map<String, String> headers,
      @ForAll("key") String orderingKey,
      @ForAll("key") String deduplicationId) {
    MailMessage.Builder builder = MailMessage.to(TO).body("{}");
    headers.forEach((name, value) -> builder.header(name, SECRET + value));
    if (orderingKey != null) {
      builder.orderingKey(SECRET + orderingKey);
    }
    if (deduplicationId != null) {
      builder.deduplicationId(SECRET + deduplicationId);
    }
    MailMessage message = builder.build();
    boolean allowed = allowed(message);
    Statistics.label("outcome").collect(allowed ? "stored" : "refused");
    Statistics.label("outcome")
        .coverage(
            coverage -> {
              coverage.check("stored").percentage(p -> p > 10);
              coverage.check("refused").percentage(p -> p > 10);
            });
    int before = SENT.get();
    try {
      MailMessage posted = provider.post(message);
      assertThat(allowed).as("accepted, so the rules allow it").isTrue();
      assertThat(SENT.get()).isEqualTo(before + 1);
      message.headers().entrySet().stream()
          .filter(header -> !header.getKey().startsWith("mbx-")) // replaced at the boundary
          .forEach(
              header -> assertThat(posted.header(header.getKey())).contains(header.getValue()));
    } catch (MailboxException refused) {
      assertThat(allowed).as("refused: " + refused.getMessage()).isFalse();
      assertThat(refused.errorCode()).isEqualTo(ErrorCode.INVALID_MESSAGE);
      assertThat(refused.getMessage()).doesNotContain(SECRET);
      assertThat(SENT.get()).as("nothing stored").isEqualTo(before);
    }
  }

  /** The documented rules, written out independently of the implementation. */
  private static boolean allowed(MailMessage message) {
    int callerHeaders = 0;
    for (Map.Entry<String, String> header : message.headers().entrySet()) {
      String name = header.getKey();
      String value = header.getValue();
      if (name.startsWith("mbx-")) {
        continue;
      }
      if (name.equals(PublishOptions.ORDERING_KEY)
          || name.equals(PublishOptions.DEDUPLICATION_ID)) {
        if (value.isBlank() || bytes(value) > 128 || control(value)) {
          return false;
        }
        continue;
      }
      if (name.equals("traceparent") || name.equals("tracestate")) {
        if (!w3cTraceContext(name, value)) {
          return false;
        }
        continue;
      }
      callerHeaders++;
      String lower = name.toLowerCase(Locale.ROOT);
      if (name.length() > 128
          || control(name)
          || List.of(
                  "traceparent",
                  "tracestate",
                  "cc",
                  "bcc",
                  "payload",
                  "x-death",
                  "x-delivery-count",
                  "x-acquired-count",
                  "x-delay")
              .contains(lower)
          || lower.startsWith("x-first-death-")
          || lower.startsWith("x-last-death-")
          || lower.startsWith("nats-")
          || lower.startsWith("goog")
          || bytes(value) > 1024
          || control(value)) {
        return false;
      }
    }
    return callerHeaders <= 32;
  }

  /** The W3C Trace Context forms (https://www.w3.org/TR/trace-context/, version 00). */
  private static boolean w3cTraceContext(String name, String value) {
    if (name.equals("traceparent")) {
      return value.matches("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}")
          && !value.substring(3, 35).equals("0".repeat(32))
          && !value.substring(36, 52).equals("0".repeat(16));
    }
    if (value.length() > 512 || value.isBlank() || value.split(",", -1).length > 32) {
      return false;
    }
    if (!value.chars().allMatch(c -> c == '\t' || (c >= 0x20 && c <= 0x7e))) {
      return false;
    }
    boolean anyMember = false;
    for (String member : value.split(",", -1)) {
      String item = member.replaceAll("^[ \t]+|[ \t]+$", "");
      int equals = item.indexOf('=');
      if (item.isEmpty()) {
        continue;
      }
      if (equals < 1) {
        return false;
      }
      String key = item.substring(0, equals);
      String val = item.substring(equals + 1);
      boolean simpleKey = key.matches("[a-z][a-z0-9_*/-]{0,255}");
      boolean tenantKey = key.matches("[a-z0-9][a-z0-9_*/-]{0,240}@[a-z][a-z0-9_*/-]{0,13}");
      boolean goodValue =
          val.length() >= 1
              && val.length() <= 256
              && val.chars().allMatch(c -> c >= 0x20 && c <= 0x7e && c != ',' && c != '=')
              && val.charAt(val.length() - 1) != ' ';
      if (!(simpleKey || tenantKey) || !goodValue) {
        return false;
      }
      anyMember = true;
    }
    return anyMember;
  }

  private static int bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }

  private static boolean control(String text) {
    return text.chars().anyMatch(Character::isISOControl);
  }

  @Provide
  Arbitrary<Map<String, String>> headers() {
    Arbitrary<String> names =
        Arbitraries.oneOf(
            Arbitraries.strings()
                .alpha()
                .numeric()
                .withChars('-', '_')
                .ofMinLength(1)
                .ofMaxLength(12),
            Arbitraries.of(
                "TraceParent",
                "traceparent",
                "tracestate",
                "X-Death",
                "x-delay",
                "NATS-Msg-Id",
                "googAttr",
                "x-first-death-queue",
                "X-Last-Death-Reason",
                "cc",
                "Payload",
                "mbx-round",
                "tenant",
                "x".repeat(129)),
            Arbitraries.strings().all().ofMinLength(1).ofMaxLength(6));
    Arbitrary<String> values =
        Arbitraries.oneOf(
            Arbitraries.strings().alpha().ofMaxLength(20),
            Arbitraries.strings().all().ofMaxLength(8),
            Arbitraries.strings().withChars('é', '€', '𝄞', 'a').ofMinLength(250).ofMaxLength(400));
    return Arbitraries.maps(names.filter(n -> !n.isBlank()), values).ofMaxSize(40);
  }

  @Provide
  Arbitrary<String> key() {
    return Arbitraries.oneOf(
        Arbitraries.strings().alpha().ofMaxLength(20),
        Arbitraries.strings().withChars('é', '€', '𝄞', 'k').ofMinLength(30).ofMaxLength(90),
        Arbitraries.strings().all().ofMaxLength(6),
        Arbitraries.just(null));
  }

  /** A transport that only counts what it is handed. */
  private static final class Counting extends SendOnlyTransport {
    Counting() {
      super("count");
    }

    @Override
    public void send(MailAddress topic, MailMessage copy) {
      SENT.incrementAndGet();
    }
  }
}
