package io.mailbox.benchmarks.soak;

import io.mailbox.connector.api.MailMessage;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * The baseline measured in the same run: the soak's loop without a mailbox. The same messages,
 * built the same way and issued in the same batches, handed over through an {@link
 * ArrayBlockingQueue} and marked in a {@link SoakLedger} — no stamping, leases, settlement, retries
 * or storage.
 */
final class QueueBaseline {
  private QueueBaseline() {}

  /** Messages per second for each chunk of {@code every} messages. */
  static double[] rates(int messages, int every) {
    ArrayBlockingQueue<MailMessage> queue = new ArrayBlockingQueue<>(SoakTraffic.BATCH);
    SoakLedger ledger = new SoakLedger(messages);
    double[] rates = new double[(messages + every - 1) / every];
    for (int chunk = 0; chunk < rates.length; chunk++) {
      int from = chunk * every;
      int to = Math.min(messages, from + every);
      long began = System.nanoTime();
      for (int start = from; start < to; start += SoakTraffic.BATCH) {
        for (int n = start; n < Math.min(to, start + SoakTraffic.BATCH); n++) {
          queue.offer(SoakTraffic.message("mem:soak@bench/baseline", n));
        }
        for (MailMessage message = queue.poll(); message != null; message = queue.poll()) {
          ledger.handled(SoakTraffic.number(message));
        }
      }
      rates[chunk] = (to - from) / ((System.nanoTime() - began) / 1e9);
    }
    if (ledger.missing() != 0) {
      throw new IllegalStateException("the baseline lost messages: " + ledger.missing());
    }
    return rates;
  }
}
