package io.mailbox.connector.api;

/**
 * An integration-event topic named {@code <type>.v<version>} ({@code orders.placed.v1}): the one
 * parser of that name, for the outbox channels, the outbox writer and the inbox.
 *
 * @param type the event type ({@code orders.placed})
 * @param version its version, 1 or more
 */
public record VersionedTopic(String type, int version) {

  /**
   * Parses {@code topic}.
   *
   * @param setting the configuration key the topic came from, named in the refusal
   * @throws MailboxException with {@link ErrorCode#INVALID_ACTIVATION} when {@code topic} does not
   *     end in {@code .v<version>} after a non-empty type
   */
  public static VersionedTopic parse(String topic, String setting) {
    int suffix = topic == null ? -1 : topic.lastIndexOf(".v");
    if (suffix > 0) {
      String digits = topic.substring(suffix + 2);
      if (!digits.isEmpty()
          && digits.length() <= 9
          && digits.chars().allMatch(Character::isDigit)) {
        int version = Integer.parseInt(digits);
        if (version >= 1) {
          return new VersionedTopic(topic.substring(0, suffix), version);
        }
      }
    }
    throw new MailboxException(
        ErrorCode.INVALID_ACTIVATION,
        setting + " '" + topic + "' must end in .v<version>, e.g. orders.placed.v1");
  }

  /** The topic's full name. */
  @Override
  public String toString() {
    return type + ".v" + version;
  }
}
