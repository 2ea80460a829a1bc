package io.mailbox.console.address;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BodyTextTest {

  @Test
  void aJsonBodyIsIndented() {
    assertThat(BodyText.shown("{\"order\":\"o-1\",\"items\":[1,2]}"))
        .contains("\n")
        .contains("\"order\": \"o-1\"")
        .startsWith("{")
        .endsWith("}");
  }

  @Test
  void textAndAlmostJsonAreShownAsSent() {
    assertThat(BodyText.prettyJson("hello")).isEmpty();
    assertThat(BodyText.prettyJson("{\"a\":1} trailing")).as("more than one value").isEmpty();
    assertThat(BodyText.prettyJson("{\"a\":")).as("cut short").isEmpty();
    assertThat(BodyText.shown("  plain text  ")).isEqualTo("  plain text  ");
  }

  @Test
  void aLongBodyIsCutAndSaysSo() {
    String body = "x".repeat(BodyText.SHOWN_CHARS + 10);

    assertThat(BodyText.shown(body))
        .startsWith("x".repeat(100))
        .endsWith(
            "("
                + (BodyText.SHOWN_CHARS + 10)
                + " characters, first "
                + BodyText.SHOWN_CHARS
                + " shown; Copy body copies all)");
  }
}
