package io.mailbox.connector.provider.kafka;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.spi.ProviderSettings;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Which addresses are read as a queue (a Kafka share group) instead of an ordered log (a classic
 * consumer group): the setting {@code kafkaQueueAddresses}, a comma-separated list of mailbox
 * patterns ({@code user@host/path}, {@code *} = any run of characters; {@code *} alone = every
 * address). Empty by default: every address is ordered.
 */
record QueueAddresses(List<String> patterns) {
  private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9@._~!$&'()*+=:/%-]{1,256}");

  QueueAddresses {
    patterns = List.copyOf(patterns);
    for (String pattern : patterns) {
      if (!ALLOWED.matcher(pattern).matches()) {
        throw ProviderSettings.invalid(
            "kafkaQueueAddresses",
            "must be a comma-separated list of mailbox patterns such as orders@shop/* (at most 256"
                + " characters each, no spaces or commas inside one)");
      }
    }
  }

  static QueueAddresses none() {
    return new QueueAddresses(List.of());
  }

  /** Parses the setting's text; blank means none. */
  static QueueAddresses parse(String text) {
    if (text == null || text.isBlank()) {
      return none();
    }
    return new QueueAddresses(Arrays.stream(text.split(",")).map(String::strip).toList());
  }

  /** Whether {@code address} is read through a share group. */
  boolean isQueue(MailAddress address) {
    String mailbox = address.mailbox();
    return patterns.stream().anyMatch(pattern -> matches(pattern, mailbox));
  }

  /** Glob match where {@code *} is any run of characters (iterative, no backtracking blow-up). */
  static boolean matches(String pattern, String text) {
    int p = 0;
    int t = 0;
    int star = -1;
    int resume = 0;
    while (t < text.length()) {
      if (p < pattern.length() && pattern.charAt(p) != '*' && pattern.charAt(p) == text.charAt(t)) {
        p++;
        t++;
      } else if (p < pattern.length() && pattern.charAt(p) == '*') {
        star = p++;
        resume = t;
      } else if (star >= 0) {
        p = star + 1;
        t = ++resume;
      } else {
        return false;
      }
    }
    while (p < pattern.length() && pattern.charAt(p) == '*') {
      p++;
    }
    return p == pattern.length();
  }

  @Override
  public String toString() {
    return String.join(",", patterns);
  }
}
