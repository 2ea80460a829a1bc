/** Shipping: an MDB on the resource adapter's inbound side. */
package io.mailbox.examples.orders.shipping;
