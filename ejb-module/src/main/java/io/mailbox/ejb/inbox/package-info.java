/**
 * The consumer inbox: a marker per (consumer, topic, envelope id), created first in the handler's
 * transaction, so a redelivered event is acknowledged without running the handler again.
 */
package io.mailbox.ejb.inbox;
