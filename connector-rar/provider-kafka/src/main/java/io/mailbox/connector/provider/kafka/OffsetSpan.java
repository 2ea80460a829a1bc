package io.mailbox.connector.provider.kafka;

/** The offsets {@code [from, end)} of one partition: the records a group has not read yet. */
record OffsetSpan(long from, long end) {

  /** How many records the span holds; none when the group is at (or past) the end. */
  long size() {
    return Math.max(0, end - from);
  }
}
