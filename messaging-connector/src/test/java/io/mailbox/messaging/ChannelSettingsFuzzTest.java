package io.mailbox.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Fuzzing a channel's settings (issue 20): whatever values MicroProfile Config hands the connector
 * (numbers already converted by it), the channel gets exactly those values or is refused with a
 * documented code (MBX-1001/1002 address, MBX-1008 range, MBX-2004 missing address); the retry
 * delay of any round is computed without overflowing.
 */
class ChannelSettingsFuzzTest {
  private static final Set<ErrorCode> DOCUMENTED =
      Set.of(
          ErrorCode.MALFORMED_ADDRESS,
          ErrorCode.ADDRESS_HAS_QUERY_OR_FRAGMENT,
          ErrorCode.INVALID_POLICY,
          ErrorCode.INVALID_ACTIVATION);

  @Property(tries = 10_000)
  void anySettingsMakeTheChannelExactlyAsGivenOrAreRefusedWithACode(
      @ForAll("address") String address,
      @ForAll("number") Long lease,
      @ForAll("number") Long maxInFlight,
      @ForAll("number") Long maxAttempts,
      @ForAll("number") Long retryDelay,
      @ForAll("number") Long retryMaxDelay,
      @ForAll("number") Long pollInterval) {
    Map<String, Object> values = new HashMap<>();
    values.put("channel-name", "orders");
    values.put("connection-factory", "mailbox/ConnectionFactory");
    putIfPresent(values, "address", address);
    putIfPresent(values, "lease", lease);
    putIfPresent(values, "max-in-flight", maxInFlight);
    putIfPresent(values, "max-attempts", maxAttempts);
    putIfPresent(values, "retry-delay", retryDelay);
    putIfPresent(values, "retry-max-delay", retryMaxDelay);
    putIfPresent(values, "poll-interval", pollInterval);
    ChannelSettings settings;
    try {
      settings = ChannelSettings.from(new MapConfig(values));
    } catch (MailboxException e) {
      assertThat(DOCUMENTED).contains(e.errorCode());
      return;
    }
    assertThat(settings.maxInFlight()).isEqualTo(maxInFlight == null ? 16 : maxInFlight);
    assertThat(settings.maxAttempts()).isEqualTo(maxAttempts == null ? 3 : maxAttempts);
    assertThat(settings.lease().toMillis()).isEqualTo(lease == null ? 30_000 : lease);
    assertThat(settings.pollInterval().toMillis())
        .isEqualTo(pollInterval == null ? 100 : pollInterval);
    java.time.Duration cap =
        settings.retryMaxDelay().compareTo(settings.retryDelay()) < 0
            ? settings.retryDelay()
            : settings.retryMaxDelay();
    java.time.Duration halfLease = settings.lease().dividedBy(2);
    if (!settings.lease().isZero() && cap.compareTo(halfLease) > 0) {
      cap = halfLease; // the wait happens under the lease
    }
    java.time.Duration first =
        settings.retryDelay().compareTo(cap) > 0 ? cap : settings.retryDelay();
    for (int round = 1; round <= 70; round++) {
      assertThat(settings.retryDelayAfter(round))
          .isGreaterThanOrEqualTo(first)
          .isLessThanOrEqualTo(cap);
    }
  }

  private static void putIfPresent(Map<String, Object> values, String key, Object value) {
    if (value != null) {
      values.put(key, value);
    }
  }

  @Provide
  Arbitrary<String> address() {
    return Arbitraries.oneOf(
        Arbitraries.of("mem:orders@shop/in", "jdbc://a@b", "mem:a@b?x=1", "amqp:", ""),
        Arbitraries.strings().all().ofMaxLength(20),
        Arbitraries.just(null));
  }

  @Provide
  Arbitrary<Long> number() {
    return Arbitraries.oneOf(
        Arbitraries.longs(),
        Arbitraries.longs().between(-2, 100_000),
        Arbitraries.of(
            (long) Integer.MAX_VALUE,
            Integer.MAX_VALUE + 1L,
            4_294_967_297L,
            Long.MAX_VALUE,
            Long.MIN_VALUE),
        Arbitraries.just(null));
  }
}
