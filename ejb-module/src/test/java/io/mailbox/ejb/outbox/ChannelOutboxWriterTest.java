package io.mailbox.ejb.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.PublishOptions;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An outgoing channel message's headers become an outbox row's options (issue 18). */
class ChannelOutboxWriterTest {
  @Test
  void theKeyAndTheDeduplicationIdBecomeOptionsAndTheRestCallerHeaders() {
    WriteOptions options =
        ChannelOutboxWriter.options(
            "order-7",
            Map.of(
                PublishOptions.ORDERING_KEY,
                "customer-7",
                PublishOptions.DEDUPLICATION_ID,
                "order-7-v2",
                "tenant",
                "eu"));

    assertThat(options.envelopeId()).isEqualTo("order-7");
    assertThat(options.orderingKey()).isEqualTo("customer-7");
    assertThat(options.deduplicationId()).isEqualTo("order-7-v2");
    assertThat(options.headers()).containsExactly(Map.entry("tenant", "eu"));
  }

  @Test
  void aMessageWithoutHeadersIsAPlainRow() {
    WriteOptions options = ChannelOutboxWriter.options(null, Map.of());

    assertThat(options).isEqualTo(WriteOptions.none());
  }
}
