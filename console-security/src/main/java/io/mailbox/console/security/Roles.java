package io.mailbox.console.security;

/** The two roles of the console and the admin API. */
public final class Roles {
  /** Sees everything, changes nothing. */
  public static final String VIEWER = "mailbox-viewer";

  /** May also change things (release, recover, purge, replay); every change is audited. */
  public static final String OPERATOR = "mailbox-operator";

  private Roles() {}
}
