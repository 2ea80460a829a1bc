package io.mailbox.connector.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.spi.ForeignHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The W3C Trace Context forms a message may carry (the examples of the W3C specification). */
class TraceHeadersTest {
  private static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

  @Test
  void theSpecificationsExamplesAreWellFormed() {
    assertThat(TraceHeaders.isWellFormed("traceparent", PARENT)).isTrue();
    assertThat(TraceHeaders.isWellFormed("traceparent", PARENT.replace("-01", "-00"))).isTrue();
    assertThat(TraceHeaders.isWellFormed("tracestate", "rojo=00f067aa0ba902b7")).isTrue();
    assertThat(TraceHeaders.isWellFormed("tracestate", "congo=t61rcWkgMzE, rojo=00f067aa0ba902b7"))
        .isTrue();
    assertThat(TraceHeaders.isWellFormed("tracestate", "fw529a3039@dt=ZmZ")).isTrue();
    assertThat(TraceHeaders.isWellFormed("tracestate", "a=1,,b=2")).as("empty members").isTrue();
    assertThat(TraceHeaders.isWellFormed("tracestate", "a=1 ,\tb=2")).as("spaces, tabs").isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\n"
      })
  void aMalformedTraceparentIsNot(String value) {
    assertThat(TraceHeaders.isWellFormed("traceparent", value)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        " ",
        "rojo",
        "Rojo=1",
        "rojo=a,b",
        "rojo=1=2",
        "rojo=\u0001",
        ",",
        "rojo=1\r\n,\r\nx=2",
        "\u2028a=b",
        "a=b\u0085",
        "a=é"
      })
  void aMalformedTracestateIsNot(String value) {
    assertThat(TraceHeaders.isWellFormed("tracestate", value)).isFalse();
  }

  @Test
  void aTracestateOver512CharactersOrOf33MembersIsNot() {
    assertThat(TraceHeaders.isWellFormed("tracestate", "a=" + "x".repeat(256))).isTrue();
    assertThat(TraceHeaders.isWellFormed("tracestate", "a=" + "x".repeat(257))).isFalse();
    String long513 = "a=" + "x".repeat(200) + ",b=" + "y".repeat(200) + ",c=" + "z".repeat(105);
    assertThat(long513).hasSize(513);
    assertThat(TraceHeaders.isWellFormed("tracestate", long513)).isFalse();
    String members = "k0=v" + ",k=v".repeat(32);
    assertThat(TraceHeaders.isWellFormed("tracestate", members)).isFalse();
    assertThat(TraceHeaders.isWellFormed("tracestate", "k0=v" + ",k=v".repeat(31))).isTrue();
  }

  @Test
  void onlyTheLowercaseNamesAreTheTraceContextOtherCasesStayReserved() {
    assertThat(TraceHeaders.isTraceHeader("traceparent")).isTrue();
    assertThat(TraceHeaders.isTraceHeader("TraceParent")).isFalse();
    assertThat(PublishOptions.isReserved("TraceParent")).isTrue();
    assertThat(PublishOptions.isReserved("traceparent")).isFalse();
  }

  @Test
  void aForeignProducersTraceContextIsCarriedOnlyWhenWellFormed() {
    MailMessage.Builder copy = MailMessage.to("mem:a@b/c").body("");
    assertThat(ForeignHeaders.carry(copy, "traceparent", PARENT, false)).isTrue();
    assertThat(ForeignHeaders.carry(copy, "tracestate", "not a state", false)).isFalse();
    assertThat(ForeignHeaders.carry(copy, "TRACEPARENT", PARENT, false)).isFalse();
    assertThat(copy.build().headers()).containsOnlyKeys("traceparent");
  }
}
