/** The one facade the console and the admin API call for mailbox state and operator actions. */
package io.mailbox.ejb.operations;
