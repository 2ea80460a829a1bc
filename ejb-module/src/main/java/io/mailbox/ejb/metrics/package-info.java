/** MicroProfile Metrics of the outbox relay. */
package io.mailbox.ejb.metrics;
