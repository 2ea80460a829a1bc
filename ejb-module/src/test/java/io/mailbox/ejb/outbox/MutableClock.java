package io.mailbox.ejb.outbox;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A clock the relay tests move by hand. */
final class MutableClock extends Clock {
  private final AtomicLong millis =
      new AtomicLong(Instant.parse("2026-11-30T10:00:00Z").toEpochMilli());

  void advance(Duration duration) {
    millis.addAndGet(duration.toMillis());
  }

  @Override
  public long millis() {
    return millis.get();
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis.get());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
