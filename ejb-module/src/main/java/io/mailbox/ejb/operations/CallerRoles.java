package io.mailbox.ejb.operations;

/**
 * The roles the operations facades check themselves ({@code @RolesAllowed}), whoever calls them:
 * the same names as the console's sign-in roles ({@code io.mailbox.console.security.Roles}; a test
 * of the console keeps them equal).
 */
public final class CallerRoles {
  /** Sees everything, changes nothing. */
  public static final String VIEWER = "mailbox-viewer";

  /** May also change things; every change is audited with the container's caller. */
  public static final String OPERATOR = "mailbox-operator";

  private CallerRoles() {}
}
