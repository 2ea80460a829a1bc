/** The operator console: Vaadin views over the operations facade, behind a login. */
package io.mailbox.console;
