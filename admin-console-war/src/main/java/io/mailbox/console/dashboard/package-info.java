/** The dashboard: every address of every provider, refreshed live. */
package io.mailbox.console.dashboard;
