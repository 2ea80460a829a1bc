/** Billing: a channel pipeline that turns placed orders into invoices and records them. */
package io.mailbox.examples.orders.billing;
