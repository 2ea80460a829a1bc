/** The audit log: who did what to which mailbox, when, and with what result. */
package io.mailbox.ejb.audit;
