package io.mailbox.console.api;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Fuzzing the admin API's request handling (issue 20), without a server: generated requests
 * (method, path, query parameters, JSON bodies, sizes) go to the JAX-RS resource classes over
 * recording facades, through the body limit's stream, and anything thrown through the exception
 * mapper. Every answer is a 200 or a refusal with a code docs/admin-api.md documents, never a 5xx;
 * a refused request changed nothing; the error body never repeats what was sent (every generated
 * free value carries the marker {@value #MARK}).
 *
 * <p>Paths are matched here by a table of the resources' own paths, so an unknown path or method
 * stands for what the JAX-RS runtime answers (404, 405 through the mapper); the runtime's real
 * matching and the web.xml error pages are checked against a server by RunScriptSmokeIT.
 */
class AdminApiFuzzTest {
  private static final String MARK = "zqx";
  private static final int MAX_BODY = 2_048;
  private static final String ADDRESS = "mem:" + MARK + "@shop/in";
  private static final Set<String> DOCUMENTED = documentedCodes();

  @Property(tries = 10_000)
  void everyRequestIsAnsweredOrRefusedWithADocumentedCodeAndARefusalChangesNothing(
      @ForAll("requests") Request request) {
    RecordingFacades facades = new RecordingFacades();
    ApiRefusal refusal = null;
    Object answer = null;
    try {
      answer = dispatch(request, facades);
    } catch (RuntimeException e) {
      refusal = ApiExceptionMapper.refusalFor(e);
    }
    if (refusal == null) {
      assertThat(answer).isInstanceOf(JsonObject.class);
      assertThat(facades.changes).hasSizeLessThanOrEqualTo(1);
      return;
    }
    assertThat(refusal.status()).as(refusal.getMessage()).isBetween(400, 499);
    assertThat(DOCUMENTED).contains(refusal.code());
    assertThat(facades.changes).as("changes made by a refused request").isEmpty();
    assertThat(ApiExceptionMapper.body(refusal).toString()).doesNotContain(MARK);
    assertThat(ApiExceptionMapper.logLine(refusal, request.method() + " /" + request.path()))
        .doesNotContain("\n", "\r", "\u2028");
  }

  /** One generated request. */
  record Request(String method, String path, Map<String, String> query, byte[] body) {
    @Override
    public String toString() {
      return method + " /" + path + " " + query + " body(" + body.length + " bytes)";
    }
  }

  private static Object dispatch(Request request, RecordingFacades facades) {
    AddressesResource addresses = new AddressesResource();
    addresses.operations = facades.mailbox;
    addresses.messages = facades.messages;
    OutboxResource outbox = new OutboxResource();
    outbox.operations = facades.outbox;
    InboxResource inbox = new InboxResource();
    inbox.operations = facades.outbox;
    DeadLettersResource deadLetters = new DeadLettersResource();
    deadLetters.operations = facades.mailbox;
    AuditResource audit = new AuditResource();
    audit.audit = facades.audit;
    Function<String, String> q = request.query()::get;
    Map<String, Function<Request, Object>> routes = new LinkedHashMap<>();
    routes.put("POST addresses/recover", r -> addresses.recover(q.apply("address")));
    routes.put(
        "GET addresses/messages", r -> addresses.messages(q.apply("address"), q.apply("limit")));
    routes.put("GET addresses/leases", r -> addresses.leases(q.apply("address"), q.apply("limit")));
    routes.put(
        "POST addresses/purge", r -> addresses.purge(q.apply("address"), q.apply("confirm")));
    routes.put("POST addresses/test-message", r -> addresses.sendTestMessage(body(r)));
    routes.put("GET addresses/message", r -> addresses.message(q.apply("address"), q.apply("key")));
    routes.put("POST addresses/messages/move", r -> addresses.move(body(r)));
    routes.put(
        "DELETE addresses/messages", r -> addresses.delete(q.apply("address"), q.apply("key")));
    routes.put("GET parked", r -> addresses.parked(q.apply("address"), q.apply("limit")));
    routes.put(
        "DELETE parked",
        r -> addresses.purgeParked(q.apply("address"), q.apply("key"), q.apply("confirm")));
    routes.put(
        "GET outbox/rows",
        r ->
            outbox.rows(
                q.apply("status") == null ? "failed" : q.apply("status"), q.apply("limit")));
    routes.put("POST outbox/release", r -> outbox.release(body(r)));
    routes.put("GET inbox/parked", r -> inbox.parked(q.apply("limit")));
    routes.put("POST inbox/release", r -> inbox.release(body(r)));
    routes.put(
        "GET deadletters/records",
        r ->
            deadLetters.records(
                q.apply("address"), q.apply("reason"), q.apply("q"), q.apply("limit")));
    routes.put("POST deadletters/replay", r -> deadLetters.replay(body(r)));
    routes.put("GET audit", r -> audit.recent(q.apply("limit")));

    Function<Request, Object> route = routes.get(request.method() + " " + request.path());
    if (route != null) {
      return route.apply(request);
    }
    boolean knownPath = routes.keySet().stream().anyMatch(k -> k.endsWith(" " + request.path()));
    throw ApiExceptionMapper.forStatus(knownPath ? 405 : 404);
  }

  /** The body as the resource reads it: through the body limit, as the filter installs it. */
  private static InputStream body(Request request) {
    RequestBodyLimit limit = new RequestBodyLimit(MAX_BODY);
    if (request.body().length > MAX_BODY && request.body().length % 2 == 0) {
      throw limit.tooLarge(); // a Content-Length over the limit, refused before reading
    }
    return limit.new Bounded(new ByteArrayInputStream(request.body()), MAX_BODY);
  }

  @Provide
  Arbitrary<Request> requests() {
    Arbitrary<String> method =
        Arbitraries.frequencyOf(
            Tuple.of(4, Arbitraries.just("GET")),
            Tuple.of(4, Arbitraries.just("POST")),
            Tuple.of(2, Arbitraries.just("DELETE")),
            Tuple.of(1, Arbitraries.of("PUT", "PATCH", "OPTIONS")));
    Arbitrary<String> path =
        Arbitraries.frequencyOf(
            Tuple.of(
                12,
                Arbitraries.of(
                    "addresses/recover",
                    "addresses/messages",
                    "addresses/leases",
                    "addresses/purge",
                    "addresses/test-message",
                    "addresses/message",
                    "addresses/messages/move",
                    "parked",
                    "outbox/rows",
                    "outbox/release",
                    "inbox/parked",
                    "inbox/release",
                    "deadletters/records",
                    "deadletters/replay",
                    "audit")),
            Tuple.of(
                1,
                Arbitraries.strings()
                    .withChars("abdelrsu/.%;2F")
                    .ofMaxLength(20)
                    .map(p -> MARK + p)));
    Arbitrary<Map<String, String>> query =
        Combinators.combine(address(), limit(), confirm(), free(), status(), free(), free())
            .as(
                (address, limit, confirm, key, status, reason, text) -> {
                  Map<String, String> values = new HashMap<>();
                  putIfPresent(values, "address", address);
                  putIfPresent(values, "limit", limit);
                  putIfPresent(values, "confirm", "SAME".equals(confirm) ? address : confirm);
                  putIfPresent(values, "key", key);
                  putIfPresent(values, "status", status);
                  putIfPresent(values, "reason", reason);
                  putIfPresent(values, "q", text);
                  return values;
                });
    return Combinators.combine(method, path, query, bodies()).as(Request::new);
  }

  private static void putIfPresent(Map<String, String> values, String key, String value) {
    if (value != null) {
      values.put(key, value);
    }
  }

  private static Arbitrary<String> address() {
    return Arbitraries.frequencyOf(
        Tuple.of(4, Arbitraries.just(ADDRESS)),
        Tuple.of(1, Arbitraries.just(" " + ADDRESS + " ")),
        Tuple.of(2, free()),
        Tuple.of(1, Arbitraries.of("mem:" + MARK + "@shop/in?x=1", MARK + ":@", " ")));
  }

  /** A value the caller made up, always carrying the marker. */
  private static Arbitrary<String> free() {
    return Arbitraries.oneOf(
        Arbitraries.strings().all().ofMaxLength(12).map(s -> MARK + s),
        Arbitraries.strings().withChars("\r\n\u2028'\"<>{}").ofMaxLength(6).map(s -> s + MARK),
        Arbitraries.just(null));
  }

  private static Arbitrary<String> limit() {
    return Arbitraries.oneOf(
        Arbitraries.integers().between(-5, 1_200).map(String::valueOf),
        Arbitraries.of("+7", " 50 ", "1e3", "0x10", "4294967346", "99999999999", "", "٣"),
        free());
  }

  private static Arbitrary<String> confirm() {
    return Arbitraries.oneOf(Arbitraries.just("SAME"), free());
  }

  private static Arbitrary<String> status() {
    return Arbitraries.oneOf(Arbitraries.of("pending", "FAILED", " sent "), free());
  }

  private static Arbitrary<byte[]> bodies() {
    Arbitrary<String> ids =
        Arbitraries.oneOf(
            Arbitraries.of("[]", "[1]", "[null]", "[[\"a\"]]", "\"" + MARK + "\"", "{}"),
            free()
                .filter(s -> s != null)
                .list()
                .ofMaxSize(4)
                .map(
                    list ->
                        list.stream()
                            .map(s -> jakarta.json.Json.createValue(s).toString())
                            .reduce((a, b) -> a + "," + b)
                            .map(s -> "[" + s + "]")
                            .orElse("[]")));
    Arbitrary<String> scalar =
        Arbitraries.of(
            "true",
            "false",
            "null",
            "1",
            "50",
            "0",
            "1001",
            "1.5",
            "-1",
            "1e400",
            "4294967346",
            "\"fast\"",
            "\"" + MARK + "\"",
            "[]",
            "{}");
    Arbitrary<String> json =
        Combinators.combine(ids, scalar, scalar, address())
            .as(
                (idList, retry, rate, address) ->
                    "{\"ids\":"
                        + idList
                        + ",\"keys\":"
                        + idList
                        + ",\"retry\":"
                        + retry
                        + ",\"perSecond\":"
                        + rate
                        + ",\"body\":"
                        + rate
                        + (address == null
                            ? ""
                            : ",\"address\":" + jakarta.json.Json.createValue(address))
                        + (rate.startsWith("\"")
                            ? ",\"key\":" + rate + ",\"target\":\"mem:" + MARK + "@shop/out\""
                            : ""));
    Arbitrary<String> text =
        Arbitraries.frequencyOf(
            Tuple.of(6, json.map(j -> j + "}")),
            Tuple.of(1, json), // cut short
            Tuple.of(1, Arbitraries.strings().all().ofMaxLength(30).map(s -> MARK + s)),
            Tuple.of(
                1, Arbitraries.of("", "[]", "null", "\"x\"", "{\"ids\":[\"a\"],\"retry\":true} x")),
            // Over the limit: padding a valid body until it is too large.
            Tuple.of(1, json.map(j -> j + ",\"pad\":\"" + MARK.repeat(MAX_BODY / 3 + 1) + "\"}")));
    return text.map(t -> t.getBytes(StandardCharsets.UTF_8));
  }

  /** Every code docs/admin-api.md names, with its MBX-1001…MBX-1008 range spelled out. */
  private static Set<String> documentedCodes() {
    String doc;
    try {
      doc = Files.readString(Path.of("..", "docs", "admin-api.md"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Set<String> codes = new TreeSet<>();
    Matcher code = Pattern.compile("MBX-\\d{4}").matcher(doc);
    while (code.find()) {
      codes.add(code.group());
    }
    Matcher range = Pattern.compile("MBX-(\\d{4})`…`MBX-(\\d{4})").matcher(doc);
    while (range.find()) {
      for (int n = Integer.parseInt(range.group(1)); n <= Integer.parseInt(range.group(2)); n++) {
        codes.add("MBX-" + n);
      }
    }
    return codes;
  }
}
