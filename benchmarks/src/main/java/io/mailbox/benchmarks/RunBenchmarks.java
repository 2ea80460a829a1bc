package io.mailbox.benchmarks;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link KernelBenchmark} and prints each kernel path's cost as a ratio to the baseline
 * measured in the same run, with the bytes it allocates per operation (JMH's GC profiler).
 * Arguments: {@code [forks] [warmup iterations] [iterations] [seconds per iteration]} (default 1 3
 * 5 2).
 */
public final class RunBenchmarks {
  private static final String BASELINE = "arrayBlockingQueueOfferPoll";

  private RunBenchmarks() {}

  public static void main(String[] args) throws Exception {
    int forks = args.length > 0 ? Integer.parseInt(args[0]) : 1;
    int warmups = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    int iterations = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 2;
    Options options =
        new OptionsBuilder()
            .include(KernelBenchmark.class.getSimpleName())
            .forks(forks)
            .warmupIterations(warmups)
            .warmupTime(TimeValue.seconds(seconds))
            .measurementIterations(iterations)
            .measurementTime(TimeValue.seconds(seconds))
            .addProfiler(GCProfiler.class)
            .build();
    Collection<RunResult> results = new Runner(options).run();

    Map<String, double[]> scores = new TreeMap<>();
    for (RunResult result : results) {
      String name = result.getParams().getBenchmark();
      name = name.substring(name.lastIndexOf('.') + 1);
      Result<?> allocated = result.getSecondaryResults().get("gc.alloc.rate.norm");
      scores.put(
          name,
          new double[] {
            result.getPrimaryResult().getScore(),
            result.getPrimaryResult().getScoreError(),
            allocated == null ? Double.NaN : allocated.getScore()
          });
    }
    double baseline = scores.get(BASELINE)[0];
    System.out.println();
    System.out.printf(
        "%-30s %14s %12s %10s %12s%n", "benchmark", "ns/op", "± error", "× baseline", "bytes/op");
    for (Map.Entry<String, double[]> entry : scores.entrySet()) {
      double[] score = entry.getValue();
      System.out.printf(
          "%-30s %14.1f %12.1f %10.1f %12.0f%n",
          entry.getKey(), score[0], score[1], score[0] / baseline, score[2]);
    }
  }
}
