package io.mailbox.connector.spi;

import io.mailbox.connector.api.MailAddress;

/**
 * Capability {@code arrival-signal}: a transport that is only fetched from can tell, in this
 * process, when a copy is queued at an address. A fetching channel waits for that signal instead of
 * polling an empty queue on a timer; its poll interval then only bounds how late it sees a copy the
 * signal could not announce.
 */
public interface SignalsArrivals extends Transport {

  /**
   * Runs {@code signal} once, as soon as {@code address} has a queued copy: at once, on this
   * thread, when it has one now; else on the thread that queues the next one, after the transport's
   * own locks are released. The signal must hand work off, never do it there; one that throws is
   * logged and dropped, never the sender's failure.
   *
   * @return cancels the signal if it has not run yet (a consumer that stops)
   */
  Runnable onNextArrival(MailAddress address, Runnable signal);
}
