package io.mailbox.connector.provider.amqp;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * How addresses map to RabbitMQ queues. An address's queue is named by its mailbox, {@code
 * user@host[/path]} (readable in the RabbitMQ console); its helpers add a suffix: {@code
 * <queue>.retry.<delay>ms} per retry delay and {@code <queue>.parked}. AMQP limits a queue name to
 * 255 bytes of UTF-8, so an address whose longest helper name would not fit is refused before
 * anything is declared.
 */
final class QueueNames {
  static final int MAX_BYTES = 255;
  private static final String PARKED_SUFFIX = ".parked";

  private final List<Long> retryDelaysMillis;

  QueueNames(List<Long> retryDelaysMillis) {
    this.retryDelaysMillis = List.copyOf(retryDelaysMillis);
  }

  /** The queue of {@code address}; refuses addresses RabbitMQ could not name. */
  String queue(MailAddress address) {
    String queue = address.mailbox();
    if (queue.startsWith("amq.")) {
      throw refused(address, "names starting with 'amq.' are reserved by RabbitMQ");
    }
    String longest =
        retryDelaysMillis.isEmpty()
            ? parked(queue)
            : retry(queue, retryDelaysMillis.stream().mapToLong(Long::longValue).max().orElse(0));
    int bytes = Math.max(bytes(longest), bytes(parked(queue)));
    if (bytes > MAX_BYTES) {
      throw refused(
          address,
          "its longest queue name would be "
              + bytes
              + " bytes of UTF-8 and AMQP allows "
              + MAX_BYTES
              + "; shorten the user, host or path");
    }
    return queue;
  }

  static String retry(String queue, long delayMillis) {
    return queue + ".retry." + delayMillis + "ms";
  }

  static String parked(String queue) {
    return queue + PARKED_SUFFIX;
  }

  List<Long> retryDelaysMillis() {
    return retryDelaysMillis;
  }

  /**
   * The retry delay for a copy handed out {@code round} times: the tiers in turn, then the last.
   */
  long delayForRound(int round) {
    int tier = Math.max(0, Math.min(round, retryDelaysMillis.size()) - 1);
    return retryDelaysMillis.get(tier);
  }

  private static int bytes(String name) {
    return name.getBytes(StandardCharsets.UTF_8).length;
  }

  private static MailboxException refused(MailAddress address, String why) {
    String shown = address.toString();
    if (shown.length() > 80) {
      shown = shown.substring(0, 77) + "...";
    }
    return new MailboxException(
        ErrorCode.MALFORMED_ADDRESS,
        "The amqp: address " + shown + " cannot be used: " + why + ".");
  }
}
