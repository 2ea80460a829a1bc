package io.mailbox.benchmarks.soak;

import java.util.Map;

/**
 * The figures after {@code messages} messages of a run.
 *
 * @param messages messages posted so far
 * @param rate messages per second over the chunk that ended here (checkpoint work excluded)
 * @param heapAfterGc bytes in use right after a forced full collection
 * @param sizes bookkeeping sizes by name (see {@code MailboxProvider.bookkeeping()})
 */
record Checkpoint(int messages, double rate, long heapAfterGc, Map<String, Long> sizes) {}
