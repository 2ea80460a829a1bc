package io.mailbox.ejb.outbox;

import java.util.ArrayList;
import java.util.List;

/** Writes down what the relay reports, as {@code kind:topic} (or {@code overlap:kind}). */
final class RecordingRelayListener implements RelayListener {
  final List<String> events = new ArrayList<>();

  @Override
  public void published(String topic) {
    events.add("published:" + topic);
  }

  @Override
  public void publishFailed(String topic) {
    events.add("failed:" + topic);
  }

  @Override
  public void poisoned(String topic) {
    events.add("poisoned:" + topic);
  }

  @Override
  public void overlap(String kind) {
    events.add("overlap:" + kind);
  }
}
