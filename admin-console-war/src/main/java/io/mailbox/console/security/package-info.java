/** Who may use the console: the configured account, the sign-in check and the route guard. */
package io.mailbox.console.security;
