package io.mailbox.console.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.ejb.operations.CallerRoles;
import org.junit.jupiter.api.Test;

class RolesTest {
  @Test
  void theFacadesCheckTheSameRolesTheSignInGrants() {
    assertThat(CallerRoles.VIEWER).isEqualTo(Roles.VIEWER);
    assertThat(CallerRoles.OPERATOR).isEqualTo(Roles.OPERATOR);
  }
}
