package io.mailbox.connector.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ShutdownFilterTest {
  @Test
  void theRefusalIsJsonWithAStableCodeAndSaysWhenToComeBack() {
    assertThat(ShutdownFilter.BODY)
        .startsWith("{\"code\":\"MBX-5003\"")
        .contains("retry after " + ShutdownFilter.RETRY_AFTER_SECONDS + " seconds");
    assertThat(
            jakarta.json.Json.createReader(new java.io.StringReader(ShutdownFilter.BODY))
                .readObject()
                .getString("code"))
        .isEqualTo("MBX-5003");
  }

  @Test
  void watchingDoesNotItselfSayTheServerStops() {
    ServerShutdown.watch();
    ServerShutdown.watch();
    assertThat(ServerShutdown.inProgress()).isFalse();
  }
}
