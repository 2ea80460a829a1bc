package io.mailbox.console.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConsoleAccountTest {

  @Test
  void configuredCredentialsAreAcceptedAndNothingElse() {
    ConsoleAccount account = ConsoleAccount.configure("ops", "s3cret-Pass-2026", generated -> {});

    assertThat(account.matches("ops", "s3cret-Pass-2026")).isTrue();
    assertThat(account.matches("ops", "s3cret-pass-2026")).isFalse();
    assertThat(account.matches("other", "s3cret-Pass-2026")).isFalse();
    assertThat(account.matches(null, "s3cret-Pass-2026")).isFalse();
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
    assertThat(ConsoleAccount.configure("ops", "s3cret-Pass-2026", g -> {}).toString())
        .doesNotContain("s3cret");
  }

  @Test
  void aWeakConfiguredPasswordIsRefusedWithoutQuotingIt() {
    for (String weak : new String[] {"op-pass", "aaaaaaaaaaaaaaaa", "abcabcabcabc"}) {
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> ConsoleAccount.configure("ops", weak, generated -> {}))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("MBX-4010")
          .hasMessageNotContaining(weak);
    }
  }

  @Test
  void aGeneratedPasswordAlwaysPassesThePolicy() {
    for (int i = 0; i < 2000; i++) {
      List<String> shown = new ArrayList<>();
      ConsoleAccount.configure(null, null, shown::add);
      assertThat(PasswordPolicy.weakness(shown.get(0))).isEmpty();
    }
  }
}
