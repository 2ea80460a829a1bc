package io.mailbox.console.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RequestsTest {
  private static final String EXPECTED = "{\"ids\": [...]}";

  private static JsonObject json(String text) {
    return Requests.object(
        new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), EXPECTED);
  }

  private static void refusedWith(Runnable call, int status, String code, String notEchoed) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            ApiRefusal.class,
            refusal -> {
              assertThat(refusal.status()).isEqualTo(status);
              assertThat(refusal.code()).isEqualTo(code);
              assertThat(refusal.getMessage()).doesNotContain(notEchoed);
              assertThat(refusal.getStackTrace()).isEmpty();
            });
  }

  @Test
  void malformedJsonIsRefusedAsAMalformedBody() {
    refusedWith(() -> json("{\"ids\": [\"a\""), 400, ApiRefusal.MALFORMED_BODY, "\"a\"");
    refusedWith(() -> json("secret-value"), 400, ApiRefusal.MALFORMED_BODY, "secret-value");
    refusedWith(() -> json(""), 400, ApiRefusal.MALFORMED_BODY, "xyz");
  }

  @Test
  void aBodyThatIsNotAnObjectIsRefusedAsAMalformedBody() {
    refusedWith(() -> json("[\"a\", \"b\"]"), 400, ApiRefusal.MALFORMED_BODY, "\"b\"");
    refusedWith(() -> json("42"), 400, ApiRefusal.MALFORMED_BODY, "42");
  }

  @Test
  void aWronglyTypedRetryIsRefusedNotCoerced() {
    refusedWith(
        () -> Requests.bool(json("{\"retry\": \"yes\"}"), "retry", EXPECTED),
        400,
        ApiRefusal.INVALID_REQUEST,
        "yes");
    refusedWith(
        () -> Requests.bool(json("{\"retry\": 1}"), "retry", EXPECTED),
        400,
        ApiRefusal.INVALID_REQUEST,
        "1}");
    assertThat(Requests.bool(json("{\"retry\": false}"), "retry", EXPECTED)).isFalse();
  }

  @Test
  void perSecondIsReadStrictlyWithoutCoercionOrWrapAround() {
    for (String wrong :
        new String[] {"\"fast\"", "4294967346", "50.5", "0", "1001", "-5", "1e999999999", "null"}) {
      refusedWith(
          () -> Requests.integer(json("{\"perSecond\": " + wrong + "}"), "perSecond", 50, 1, 1000),
          400,
          ApiRefusal.INVALID_REQUEST,
          "fast");
      assertThatThrownBy(
              () ->
                  Requests.integer(
                      json("{\"perSecond\": " + wrong + "}"), "perSecond", 50, 1, 1000))
          .hasMessage("perSecond must be a whole number from 1 to 1000");
    }
    assertThat(Requests.integer(json("{}"), "perSecond", 50, 1, 1000)).isEqualTo(50);
    assertThat(Requests.integer(json("{\"perSecond\": 1000}"), "perSecond", 50, 1, 1000))
        .isEqualTo(1000);
  }

  @Test
  void aNonNumericOrOutOfRangeLimitIsABadRequest() {
    for (String wrong : new String[] {"abc", "0", "1001", "99999999999", "1.5", "", "-1"}) {
      refusedWith(
          () -> Requests.limit(wrong, 50), 400, ApiRefusal.INVALID_REQUEST, "limit must be 1 ");
    }
    assertThat(Requests.limit(null, 50)).isEqualTo(50);
    assertThat(Requests.limit("1000", 50)).isEqualTo(1000);
  }

  @Test
  void idsMustBeANonEmptyArrayOfStrings() {
    refusedWith(
        () -> Requests.strings(json("{\"ids\": [1]}"), "ids", "rows", EXPECTED),
        400,
        ApiRefusal.INVALID_REQUEST,
        "[1]");
    refusedWith(
        () -> Requests.strings(json("{\"ids\": \"a\"}"), "ids", "rows", EXPECTED),
        400,
        ApiRefusal.INVALID_REQUEST,
        "\"a\"");
    assertThat(Requests.strings(json("{\"ids\": [\"a\"]}"), "ids", "rows", EXPECTED))
        .containsExactly("a");
  }

  @Test
  void aRequiredParameterMessageNamesTheParameterNotAValue() {
    refusedWith(() -> Requests.required("address", " "), 400, ApiRefusal.INVALID_REQUEST, "xyz");
    assertThat(Json.createObjectBuilder().build()).isEmpty();
  }

  @Test
  void removingEverythingAtAnAddressNeedsTheAddressRepeated() {
    refusedWith(
        () -> Requests.confirmed("jdbc:a@b/c", null), 400, ApiRefusal.INVALID_REQUEST, "jdbc:");
    refusedWith(
        () -> Requests.confirmed("jdbc:a@b/c", "jdbc:a@b/d"),
        400,
        ApiRefusal.INVALID_REQUEST,
        "jdbc:");
    assertThat(Requests.confirmed(" jdbc:a@b/c", "jdbc:a@b/c ")).isEqualTo("jdbc:a@b/c");
  }
}
