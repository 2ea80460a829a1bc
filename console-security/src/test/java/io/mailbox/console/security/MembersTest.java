package io.mailbox.console.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Who may sign in, from configuration. */
class MembersTest {
  private final ConsoleAccount console = ConsoleAccount.configure("admin", "op-pass", p -> {});

  private Members members(String users, Map<String, String> passwords) {
    return Members.of(console, users, name -> Optional.ofNullable(passwords.get(name)));
  }

  @Test
  void theConsoleAccountIsAnOperatorAndConfiguredUsersGetTheirRole() {
    Members members =
        members("auditor:viewer, ops:OPERATOR", Map.of("auditor", "a-pass", "ops", "o-pass"));

    assertThat(members.authenticate("admin", "op-pass").orElseThrow().roles())
        .containsExactlyInAnyOrder(Roles.OPERATOR, Roles.VIEWER);
    assertThat(members.authenticate("auditor", "a-pass").orElseThrow().roles())
        .containsExactly(Roles.VIEWER);
    assertThat(members.authenticate("ops", "o-pass").orElseThrow().roles())
        .contains(Roles.OPERATOR);
    assertThat(members.refused()).isEmpty();
  }

  @Test
  void wrongPasswordsAndUnknownUsersAreRefused() {
    Members members = members("auditor:viewer", Map.of("auditor", "a-pass"));

    assertThat(members.authenticate("auditor", "op-pass")).isEmpty();
    assertThat(members.authenticate("nobody", "a-pass")).isEmpty();
    assertThat(members.authenticate(null, null)).isEmpty();
  }

  @Test
  void accountsWithoutPasswordOrRoleOrWithABadNameAreLeftOutAndSaidWhyWithoutPasswords() {
    Members members =
        members(
            "nopass:viewer,norole,bad name:viewer,twice:viewer,twice:operator,admin:viewer",
            Map.of("norole", "x", "twice", "secret-1", "admin", "secret-2"));

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
}
