package io.mailbox.connector.provider.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AtMostEveryTest {

  @Test
  void dueAtOnceThenOncePerInterval() {
    AtMostEvery gate = new AtMostEvery(100);
    long start = System.nanoTime();

    assertThat(gate.due(start)).isTrue();
    assertThat(gate.due(start + 99)).isFalse();
    assertThat(gate.due(start + 100)).isTrue();
    assertThat(gate.due(start + 150)).isFalse();
    assertThat(gate.due(start + 150, 50)).as("a shorter interval given").isTrue();
    assertThat(gate.due(start + 151, 0)).as("no interval: always due").isTrue();
  }
}
