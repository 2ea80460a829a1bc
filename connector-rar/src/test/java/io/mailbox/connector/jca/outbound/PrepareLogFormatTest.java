package io.mailbox.connector.jca.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.MailMessage;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrepareLogFormatTest {
  private static final BranchId LONGEST = new BranchId(-1, filled(64, 0xFF), filled(64, 0xFB));

  private static byte[] filled(int length, int value) {
    byte[] bytes = new byte[length];
    Arrays.fill(bytes, (byte) value);
    return bytes;
  }

  private static LoggedBranch branch() {
    return new LoggedBranch(
        LONGEST,
        LoggedBranch.State.PREPARED,
        List.of(
            MailMessage.to("mem:billing@shop/placed")
                .id("order-1")
                .from("jdbc:orders@shop/desk")
                .body("{\"note\":\"Grüße \\n\"}")
                .header("traceparent", "00-abc")
                .meta("tenant", "acme")
                .build(),
            MailMessage.to("file:ledger@shop/in").id("order-1-ledger").body("").build()));
  }

  @Test
  void anEntryReadsBackAsTheSameBranchAndPosts() throws Exception {
    LoggedBranch written = branch();

    LoggedBranch read = PrepareLogFormat.decode(PrepareLogFormat.encode(written));

    assertThat(read).isEqualTo(written);
    assertThat(read.xid().getGlobalTransactionId()).isEqualTo(filled(64, 0xFF));
  }

  @Test
  void anEntryStartsWithItsMagicAndVersion() {
    String entry = new String(PrepareLogFormat.encode(branch()), StandardCharsets.UTF_8);

    assertThat(entry).startsWith("mailbox-prepare-log 1 ");
    assertThat(entry.lines().skip(1).findFirst().orElseThrow())
        .contains("\"state\":\"prepared\"", "\"formatId\":-1", "\"id\":\"order-1\"");
  }

  @Test
  void theLongestBranchIdStillMakesAFileNameWithinTheLimit() {
    assertThat((LONGEST.key() + LoggedBranch.State.COMMITTED.suffix()).length())
        .isLessThanOrEqualTo(255);
  }

  @Test
  void aTruncatedEntryIsRefusedAsTorn() {
    byte[] entry = PrepareLogFormat.encode(branch());

    assertThatThrownBy(() -> PrepareLogFormat.decode(Arrays.copyOf(entry, entry.length - 1)))
        .isInstanceOf(PrepareLogFormat.UnreadableEntryException.class)
        .hasMessageContaining("torn");
  }

  @Test
  void aFlippedBitIsRefusedByTheChecksum() {
    byte[] entry = PrepareLogFormat.encode(branch());
    entry[entry.length - 20] ^= 0x01;

    assertThatThrownBy(() -> PrepareLogFormat.decode(entry))
        .hasMessageContaining("checksum")
        .hasMessageNotContaining("order-1");
  }

  @Test
  void anUnknownVersionIsRefusedRatherThanGuessed() {
    String entry = new String(PrepareLogFormat.encode(branch()), StandardCharsets.UTF_8);
    byte[] future =
        entry
            .replaceFirst("mailbox-prepare-log 1 ", "mailbox-prepare-log 2 ")
            .getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(() -> PrepareLogFormat.decode(future)).hasMessageContaining("version 2");
  }

  @Test
  void aPayloadThatIsNotAMessageIsRefusedWithoutQuotingIt() {
    byte[] body =
        "{\"posts\":[{\"body\":\"secret\"}],\"state\":\"prepared\"}"
            .getBytes(StandardCharsets.UTF_8);
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(body);
    String header =
        "mailbox-prepare-log 1 "
            + body.length
            + " "
            + java.util.HexFormat.of().toHexDigits((int) crc.getValue())
            + "\n";
    byte[] entry =
        (header + new String(body, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(() -> PrepareLogFormat.decode(entry))
        .hasMessageStartingWith("invalid payload")
        .hasMessageNotContaining("secret");
  }
}
