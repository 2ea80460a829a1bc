package io.mailbox.console.security;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Who may sign in to the console and the admin API, and in which role. The console account ({@link
 * ConsoleAccount}) is an operator; more accounts come from configuration, never from code:
 *
 * <pre>
 * mailbox.users=ops:operator,auditor:viewer            (env MAILBOX_USERS)
 * mailbox.user.ops.password=...                         (env MAILBOX_USER_OPS_PASSWORD)
 * </pre>
 *
 * An account without a password, with a password weaker than {@link PasswordPolicy}, with an
 * unknown role or a malformed name is left out (and the reason logged by the caller, without any
 * password). The console account's password must pass the policy too, or the application does not
 * start ({@link ConsoleAccount#configure}).
 */
public final class Members {
  /** One account and its roles. */
  public record Member(ConsoleAccount account, Set<String> roles) {}

  private final List<Member> members;
  private final List<String> refused;

  private Members(List<Member> members, List<String> refused) {
    this.members = List.copyOf(members);
    this.refused = List.copyOf(refused);
  }

  /**
   * @param console the console account (an operator)
   * @param users the {@code mailbox.users} list, or null
   * @param passwordOf looks up {@code mailbox.user.<name>.password}
   */
  public static Members of(
      ConsoleAccount console, String users, Function<String, Optional<String>> passwordOf) {
    List<Member> members = new ArrayList<>();
    List<String> refused = new ArrayList<>();
    members.add(new Member(console, Set.of(Roles.OPERATOR, Roles.VIEWER)));
    if (users != null) {
      for (String entry : users.split(",")) {
        if (entry.isBlank()) {
          continue;
        }
        String[] parts = entry.strip().split(":", 2);
        String name = parts[0].strip();
        String role = parts.length == 2 ? parts[1].strip().toLowerCase(Locale.ROOT) : "";
        if (!name.matches("[A-Za-z0-9._-]{1,64}")) {
          refused.add("an entry of mailbox.users has a malformed name");
          continue;
        }
        Set<String> roles =
            switch (role) {
              case "viewer" -> Set.of(Roles.VIEWER);
              case "operator" -> Set.of(Roles.OPERATOR, Roles.VIEWER);
              default -> null;
            };
        Optional<String> password = passwordOf.apply(name).filter(p -> !p.isBlank());
        if (roles == null) {
          refused.add("user '" + name + "' has no role viewer or operator");
        } else if (password.isEmpty()) {
          refused.add("user '" + name + "' has no password (mailbox.user." + name + ".password)");
        } else if (PasswordPolicy.weakness(password.get()).isPresent()) {
          refused.add(
              ConsoleAccount.WEAK_PASSWORD
                  + " user '"
                  + name
                  + "' has a password that is too weak: "
                  + PasswordPolicy.weakness(password.get()).get()
                  + " (use "
                  + PasswordPolicy.rule()
                  + ")");
        } else if (members.stream().anyMatch(m -> m.account().username().equals(name))) {
          refused.add("user '" + name + "' is defined twice");
        } else {
          members.add(
              new Member(ConsoleAccount.configure(name, password.get(), ignored -> {}), roles));
        }
      }
    }
    return new Members(members, refused);
  }

  /** The member these credentials belong to; the password check is constant-time per account. */
  public Optional<Member> authenticate(String username, String password) {
    Member found = null;
    for (Member member : members) {
      if (member.account().matches(username, password)) {
        found = member;
      }
    }
    return Optional.ofNullable(found);
  }

  /** Why configured accounts were left out (no passwords in the text). */
  public List<String> refused() {
    return refused;
  }

  public List<Member> all() {
    return members;
  }
}
