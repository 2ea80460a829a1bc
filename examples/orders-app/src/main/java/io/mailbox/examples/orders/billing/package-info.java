/** Billing: consumes "order placed" letters through an MDB. */
package io.mailbox.examples.orders.billing;
