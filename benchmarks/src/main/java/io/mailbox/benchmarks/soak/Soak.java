package io.mailbox.benchmarks.soak;

import java.io.PrintStream;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The soak command ({@code bin/soak [messages] [providers]}): N messages through the kernel on each
 * provider with a subscriber, leased fetches and every failure path (see {@link SoakTraffic}). At
 * each tenth of the run it prints the throughput, the heap after a forced GC ({@link HeapProbe})
 * and the provider's bookkeeping sizes; at the end, whether each series stayed flat ({@link
 * Flatness}) and whether every message ended handled or dead-lettered exactly once. Exits 1 when a
 * series grows or a message was lost or applied twice. Arguments: messages (default 1,000,000, at
 * least 1,000), providers as {@code mem,jdbc} (default both). {@code jdbc:} runs on a {@code
 * mailbox_soak} database on the local PostgreSQL unless {@code -Dmailbox.soak.jdbcUrl} names
 * another.
 */
public final class Soak {
  // Held so the level sticks. The failure paths log a line per message by design (a fatal
  // delivery, a collapsed duplicate, a parked record: severe), which would drown the figures and
  // cost time; the soak counts those outcomes itself.
  private static final Logger MAILBOX_LOG = Logger.getLogger("io.mailbox");

  private Soak() {}

  public static void main(String[] args) throws Exception {
    int messages = args.length > 0 ? Integer.parseInt(args[0].replaceAll("[,_]", "")) : 1_000_000;
    List<String> providers = args.length > 1 ? List.of(args[1].split(",")) : List.of("mem", "jdbc");
    if (messages < 10 * SoakTraffic.BATCH) {
      System.err.println("usage: bin/soak [messages >= 1000] [mem,jdbc]");
      System.exit(2);
    }
    List<ProviderSoak> results = run(messages, providers, System.out);
    System.exit(results.stream().allMatch(ProviderSoak::passed) ? 0 : 1);
  }

  /** Runs the soak on each provider in turn, printing to {@code out}; returns each verdict. */
  static List<ProviderSoak> run(int messages, List<String> providers, PrintStream out)
      throws Exception {
    int every = Math.max(SoakTraffic.BATCH, messages / 10 / SoakTraffic.BATCH * SoakTraffic.BATCH);
    Level level = MAILBOX_LOG.getLevel();
    MAILBOX_LOG.setLevel(Level.OFF);
    List<ProviderSoak> results = new ArrayList<>();
    try (HeapProbe probe = new HeapProbe()) {
      out.printf(
          "soak %s: %,d messages per provider, checkpoints every %,d, JDK %s, %d CPUs, max heap %,d MB%n",
          LocalDate.now(),
          messages,
          every,
          Runtime.version(),
          Runtime.getRuntime().availableProcessors(),
          Runtime.getRuntime().maxMemory() / 1024 / 1024);
      double[] baseline = QueueBaseline.rates(messages, every);
      for (String scheme : providers) {
        ProviderSoak soak = soak(scheme.strip(), messages, every, probe, out);
        results.add(soak);
        out.println();
        SoakTable.print(out, soak, baseline);
        out.println(soak.summary());
        out.printf(
            "%s: %,d messages, %d lost, %d applied twice; series growing: %s -> %s%n%n",
            soak.scheme(),
            messages,
            soak.missing(),
            soak.duplicates(),
            soak.growing().isEmpty() ? "none" : String.join(", ", soak.growing()),
            soak.passed() ? "PASS" : "FAIL");
      }
      out.println("heap: " + probe.method());
      out.println("verdict rule: " + Flatness.rule());
    } finally {
      MAILBOX_LOG.setLevel(level);
    }
    return results;
  }

  private static ProviderSoak soak(
      String scheme, int messages, int every, HeapProbe probe, PrintStream out) throws Exception {
    try (SoakRig rig = SoakRig.of(scheme)) {
      SoakLedger ledger = new SoakLedger(messages);
      SoakTraffic traffic =
          new SoakTraffic(rig, ledger, rig.lanes, rig.lease, "jdbc".equals(scheme));
      out.printf("%s: %s, %d lane(s), leases of %s%n", scheme, rig.where, rig.lanes, rig.lease);
      List<Checkpoint> checkpoints = new ArrayList<>();
      for (int from = 0; from < messages; from += every) {
        int to = Math.min(messages, from + every);
        long began = System.nanoTime();
        traffic.run(from, to);
        double rate = (to - from) / ((System.nanoTime() - began) / 1e9);
        traffic.maintain();
        Map<String, Long> sizes = rig.sizes();
        Checkpoint checkpoint = new Checkpoint(to, rate, probe.heapAfterGc(), sizes);
        checkpoints.add(checkpoint);
        out.printf(
            "%s %9s  %,9.0f msg/s  heap after GC %6.1f MB  %s%n",
            scheme,
            SoakTable.thousands(to),
            rate,
            checkpoint.heapAfterGc() / 1024.0 / 1024.0,
            sizes);
      }
      Duration drain = traffic.drain(missing -> {});
      out.printf("%s: drained in %,d ms%n", scheme, drain.toMillis());
      return new ProviderSoak(
          scheme,
          rig.where,
          checkpoints,
          rig.sizes(),
          probe.heapAfterGc(),
          ledger.missing(),
          ledger.duplicates(),
          Flatness.growing(checkpoints),
          String.format(
              "%s: %,d handled, %,d dead-lettered; %s",
              scheme, ledger.handledCount(), ledger.deadLetteredCount(), traffic.summary()));
    }
  }
}
