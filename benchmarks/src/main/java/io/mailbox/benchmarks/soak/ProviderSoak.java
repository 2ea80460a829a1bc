package io.mailbox.benchmarks.soak;

import java.util.List;
import java.util.Map;

/**
 * One provider's soak: its checkpoints, the state after the final drain and the verdict.
 *
 * @param scheme the provider
 * @param where where it stored the messages
 * @param checkpoints one per tenth of the run
 * @param drained bookkeeping sizes once every message had an outcome (or the drain gave up)
 * @param drainedHeap heap after GC at that moment
 * @param missing messages with no outcome after the drain: lost
 * @param duplicates outcomes beyond the first for a message
 * @param growing series that failed the flatness rule
 * @param summary what the failure paths did
 */
record ProviderSoak(
    String scheme,
    String where,
    List<Checkpoint> checkpoints,
    Map<String, Long> drained,
    long drainedHeap,
    int missing,
    long duplicates,
    List<String> growing,
    String summary) {

  boolean passed() {
    return growing.isEmpty() && missing == 0 && duplicates == 0;
  }
}
