package io.mailbox.console.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Who may sign in, from configuration. */
class MembersTest {
  private final ConsoleAccount console =
      ConsoleAccount.configure("admin", "op-pass-2026-x", p -> {});

  private Members members(String users, Map<String, String> passwords) {
    return Members.of(console, users, name -> Optional.ofNullable(passwords.get(name)));
  }

  @Test
  void theConsoleAccountIsAnOperatorAndConfiguredUsersGetTheirRole() {
    Members members =
        members(
            "auditor:viewer, ops:OPERATOR",
            Map.of("auditor", "a-pass-2026-xy", "ops", "o-pass-2026-xy"));

    assertThat(members.authenticate("admin", "op-pass-2026-x").orElseThrow().roles())
        .containsExactlyInAnyOrder(Roles.OPERATOR, Roles.VIEWER);
    assertThat(members.authenticate("auditor", "a-pass-2026-xy").orElseThrow().roles())
        .containsExactly(Roles.VIEWER);
    assertThat(members.authenticate("ops", "o-pass-2026-xy").orElseThrow().roles())
        .contains(Roles.OPERATOR);
    assertThat(members.refused()).isEmpty();
  }

  @Test
  void wrongPasswordsAndUnknownUsersAreRefused() {
    Members members = members("auditor:viewer", Map.of("auditor", "a-pass-2026-xy"));

    assertThat(members.authenticate("auditor", "op-pass-2026-x")).isEmpty();
    assertThat(members.authenticate("nobody", "a-pass-2026-xy")).isEmpty();
    assertThat(members.authenticate(null, null)).isEmpty();
  }

  @Test
  void accountsWithoutPasswordOrRoleOrWithABadNameAreLeftOutAndSaidWhyWithoutPasswords() {
    Members members =
        members(
            "nopass:viewer,norole,bad name:viewer,twice:viewer,twice:operator,admin:viewer",
            Map.of(
                "norole", "x", "twice", "secret-1-long-enough", "admin", "secret-2-long-enough"));

    assertThat(members.all())
        .extracting(m -> m.account().username())
        .containsExactly("admin", "twice");
    assertThat(members.refused())
        .hasSize(5)
        .noneMatch(reason -> reason.contains("secret"))
        .anyMatch(reason -> reason.contains("'nopass' has no password"))
        .anyMatch(reason -> reason.contains("'norole' has no role"))
        .anyMatch(reason -> reason.contains("malformed name"))
        .anyMatch(reason -> reason.contains("'twice' is defined twice"));
  }

  @Test
  void anAccountWithAWeakPasswordIsLeftOutAndSaidWhyWithoutThePassword() {
    Members members = members("auditor:viewer", Map.of("auditor", "auditor1"));

    assertThat(members.all()).extracting(m -> m.account().username()).containsExactly("admin");
    assertThat(members.refused())
        .singleElement()
        .satisfies(
            reason ->
                assertThat(reason)
                    .startsWith("MBX-4010 user 'auditor'")
                    .contains("fewer than 12 characters")
                    .doesNotContain("auditor1"));
  }
}
