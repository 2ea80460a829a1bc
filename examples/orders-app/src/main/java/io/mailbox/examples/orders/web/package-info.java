/** The shop's REST entry point: place orders, list what billing received. */
package io.mailbox.examples.orders.web;
