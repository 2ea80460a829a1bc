package io.mailbox.connector.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.PublishOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The conformance kit's publish options (issue 18): the ordering key, the de-duplication id and the
 * caller's headers reach the consumer on every provider, and options over their bounds or under a
 * reserved name are refused with {@code MBX-1004} before anything is stored, never repeating the
 * refused value. Part of {@link ProviderContract}; not meant to be extended on its own.
 */
public abstract class PublishContract extends ContractFixture {
  private static final String SECRET = "private-value-7f3a";

  @Test
  void theOptionsAndTheCallersHeadersReachTheConsumer() {
    MailAddress inbox = address("options");
    provider.post(
        MailMessage.to(inbox)
            .id("o-1")
            .body("{}")
            .orderingKey("customer-42")
            .deduplicationId("o-1-v1")
            .header("tenant", "eu")
            .header("Content-Language", "de")
            .build());

    await("queued", () -> provider.status(inbox).unreadCount() == 1);
    MailMessage received = fetchAll(inbox).get(0);
    assertThat(received.header(PublishOptions.ORDERING_KEY)).contains("customer-42");
    assertThat(received.header(PublishOptions.DEDUPLICATION_ID)).contains("o-1-v1");
    assertThat(received.header("tenant")).contains("eu");
    assertThat(received.header("Content-Language")).contains("de");
  }

  @Test
  void optionsOverTheirBoundsOrUnderAReservedNameAreRefusedBeforeAnythingIsStored() {
    MailAddress inbox = address("refused-options");
    List<MailMessage.Builder> refused =
        List.of(
            letterTo(inbox).orderingKey(SECRET + "é".repeat(60)), // 129 UTF-8 bytes and more
            letterTo(inbox).deduplicationId(SECRET + "\n"),
            letterTo(inbox).header("note", SECRET + "x".repeat(PublishOptions.MAX_HEADER_BYTES)),
            letterTo(inbox).header("TraceParent", SECRET),
            letterTo(inbox).header("X-Death", SECRET),
            letterTo(inbox).header("x-first-death-queue", SECRET),
            letterTo(inbox).header("NATS-Msg-Id", SECRET),
            letterTo(inbox).header("x".repeat(PublishOptions.MAX_NAME_CHARS + 1), SECRET),
            tooManyHeaders(inbox));
    for (MailMessage.Builder message : refused) {
      MailMessage built = message.build();
      assertThatThrownBy(() -> provider.post(built))
          .hasMessageStartingWith(ErrorCode.INVALID_MESSAGE.code())
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain(SECRET));
      assertThatThrownBy(() -> provider.postAll(List.of(letterTo(inbox).build(), built)))
          .as("one refused post refuses the batch before any is stored")
          .hasMessageStartingWith(ErrorCode.INVALID_MESSAGE.code());
    }

    assertThat(provider.status(inbox).unreadCount()).isZero();
    assertThat(fetchAll(inbox)).isEmpty();
  }

  private static MailMessage.Builder letterTo(MailAddress inbox) {
    return MailMessage.to(inbox).body("{}");
  }

  private static MailMessage.Builder tooManyHeaders(MailAddress inbox) {
    MailMessage.Builder message = letterTo(inbox);
    for (int i = 0; i <= PublishOptions.MAX_HEADERS; i++) {
      message.header("h-" + i, SECRET);
    }
    return message;
  }
}
