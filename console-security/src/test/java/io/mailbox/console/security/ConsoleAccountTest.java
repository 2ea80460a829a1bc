package io.mailbox.console.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConsoleAccountTest {

  @Test
  void configuredCredentialsAreAcceptedAndNothingElse() {
    ConsoleAccount account = ConsoleAccount.configure("ops", "s3cret-Pass", generated -> {});

    assertThat(account.matches("ops", "s3cret-Pass")).isTrue();
    assertThat(account.matches("ops", "s3cret-pass")).isFalse();
    assertThat(account.matches("other", "s3cret-Pass")).isFalse();
    assertThat(account.matches(null, "s3cret-Pass")).isFalse();
    assertThat(account.matches("ops", null)).isFalse();
    assertThat(account.isGenerated()).isFalse();
  }

  @Test
  void withoutAConfiguredPasswordARandomOneIsGeneratedAndHandedOutOnce() {
    List<String> shown = new ArrayList<>();

    ConsoleAccount account = ConsoleAccount.configure(null, " ", shown::add);

    assertThat(shown).hasSize(1);
    assertThat(shown.get(0)).hasSizeGreaterThanOrEqualTo(20);
    assertThat(account.username()).isEqualTo(ConsoleAccount.DEFAULT_USERNAME);
    assertThat(account.matches("admin", shown.get(0))).isTrue();
    assertThat(account.matches("admin", "")).isFalse();
    assertThat(account.isGenerated()).isTrue();
  }

  @Test
  void twoGeneratedPasswordsDiffer() {
    List<String> shown = new ArrayList<>();
    ConsoleAccount.configure(null, null, shown::add);
    ConsoleAccount.configure(null, null, shown::add);

    assertThat(shown.get(0)).isNotEqualTo(shown.get(1));
  }

  @Test
  void toStringNeverShowsThePassword() {
    assertThat(ConsoleAccount.configure("ops", "s3cret-Pass", g -> {}).toString())
        .doesNotContain("s3cret");
  }
}
