package io.mailbox.connector.provider.nats;

import io.nats.client.Connection;
import io.nats.client.Nats;

/**
 * The machine's NATS server with JetStream (started with {@code -js} before the session; {@code
 * .ci/run} starts it when it is down). {@code MAILBOX_NATS_URL} points the tests elsewhere. Tests
 * make streams of their own and delete them afterwards ({@link #deleteStreams}).
 */
final class NatsServer {
  private NatsServer() {}

  static String url() {
    String url = System.getenv("MAILBOX_NATS_URL");
    return url == null || url.isBlank() ? "nats://127.0.0.1:4222" : url;
  }

  /** Deletes the streams whose names start with {@code prefix} (the tests' own). */
  static void deleteStreams(String prefix) throws Exception {
    try (Connection connection = Nats.connect(url())) {
      var management = connection.jetStreamManagement();
      for (String stream : management.getStreamNames()) {
        if (stream.startsWith(prefix)) {
          management.deleteStream(stream);
        }
      }
    }
  }
}
