package io.mailbox.benchmarks;

/**
 * The summary a broker benchmark prints after its rounds: medians of each rate, the provider's
 * ratios to the raw client, and the median of the rounds' own ratios (steadier than a ratio of
 * medians on a busy machine). The rates come in six rows: publish raw, publish ours, consume raw,
 * consume ours, raw one by one, relayed.
 */
final class BrokerBenchReport {
  private BrokerBenchReport() {}

  static void print(double[][] rates, String oneByOne) {
    double publishRaw = OutboxBench.median(rates[0]);
    double publishOurs = OutboxBench.median(rates[1]);
    double consumeRaw = OutboxBench.median(rates[2]);
    double consumeOurs = OutboxBench.median(rates[3]);
    double single = OutboxBench.median(rates[4]);
    double relayed = OutboxBench.median(rates[5]);
    System.out.printf(
        "%nmedian: publish raw %,.0f/s ours %,.0f/s | consume raw %,.0f/s ours %,.0f/s |"
            + " relay %,.0f rows/s, raw %s %,.0f/s%n",
        publishRaw, publishOurs, consumeRaw, consumeOurs, relayed, oneByOne, single);
    System.out.printf(
        "ratio publish provider / raw (same fields) = %.2f (target >= 0.9)%n",
        publishOurs / publishRaw);
    System.out.printf(
        "ratio consume provider / raw = %.2f (target >= 0.9)%n", consumeOurs / consumeRaw);
    System.out.printf("ratio relay / raw %s = %.2f%n", oneByOne, relayed / single);
    System.out.printf(
        "per-round ratios (median): publish %.2f, consume %.2f%n",
        medianRatio(rates[1], rates[0]), medianRatio(rates[3], rates[2]));
  }

  static double medianRatio(double[] ours, double[] raw) {
    double[] ratios = new double[ours.length];
    for (int i = 0; i < ours.length; i++) {
      ratios[i] = ours[i] / raw[i];
    }
    return OutboxBench.median(ratios);
  }
}
