package io.mailbox.ejb.outbox;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Write order for outbox rows: 16 digits of microseconds from this writer's clock, never going
 * backwards within the process, then 8 hex digits naming the process so two writers never collide.
 * Fixed width without separators, so any collation compares it as written. Writers whose clocks
 * disagree interleave by clock, not by real time (see docs/outbox.md).
 */
final class RowPosition {
  private static final String NODE = String.format("%08x", new SecureRandom().nextInt());
  private static final AtomicLong LAST = new AtomicLong();

  private RowPosition() {}

  static String next(Clock clock) {
    long micros = clock.millis() * 1000;
    long position = LAST.accumulateAndGet(micros, (last, now) -> Math.max(last + 1, now));
    return String.format("%016d%s", position, NODE);
  }
}
