package io.mailbox.connector.provider.redis;

import io.mailbox.connector.provider.redis.HeldEntries.Held;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import redis.clients.jedis.StreamEntryID;

/**
 * The provider's sweep, run every second. Expired fetch leases go back. Every third of the lease
 * (at most every 10 s) the entries held or leased here are touched (their idle time reset), so no
 * process reclaims what a subscriber or a fetcher still works on. Every minute, other processes'
 * consumers that hold nothing and idled an hour are deleted. A step that fails (Redis away) is
 * logged at FINE and tried again at its next turn; the others still run.
 */
final class Upkeep implements Runnable {
  private static final Logger LOG = Logger.getLogger(Upkeep.class.getName());
  private static final int SWEEP_CONSUMERS_EVERY = 60;

  private final FetchLeases leases;
  private final HeldEntries held;
  private final GroupReads reads;
  private final ConsumerGroups groups;
  private final Supplier<Set<String>> readStreams;
  private final long touchEvery;
  private long runs;

  Upkeep(
      FetchLeases leases,
      HeldEntries held,
      GroupReads reads,
      ConsumerGroups groups,
      Supplier<Set<String>> readStreams,
      Duration lease) {
    this.leases = leases;
    this.held = held;
    this.reads = reads;
    this.groups = groups;
    this.readStreams = readStreams;
    this.touchEvery = Math.max(1, Math.min(10, lease.toSeconds() / 3));
  }

  @Override
  public void run() {
    runs++;
    step("hand expired leases back", () -> leases.addresses().forEach(leases::reclaimExpired));
    if (runs % touchEvery == 0) {
      step("touch the entries held here", () -> here().forEach(reads::keepAlive));
    }
    if (runs % SWEEP_CONSUMERS_EVERY == 0) {
      step("sweep idle consumers", () -> readStreams.get().forEach(groups::sweep));
    }
  }

  /** Hands every held and leased entry back at once (the provider stops). */
  void handBackAll() {
    leases.handBackAll();
    for (Held entry : List.copyOf(held.all())) {
      reads.requeue(entry.key(), entry.id(), 0);
    }
  }

  private Map<String, List<StreamEntryID>> here() {
    Map<String, List<StreamEntryID>> here = new HashMap<>();
    held.all().forEach(h -> here.computeIfAbsent(h.key(), k -> new ArrayList<>()).add(h.id()));
    leases.collect(here);
    return here;
  }

  private static void step(String what, Runnable step) {
    try {
      step.run();
    } catch (RuntimeException e) {
      LOG.log(Level.FINE, "The redis: sweep could not " + what + " (next turn)", e);
    }
  }
}
