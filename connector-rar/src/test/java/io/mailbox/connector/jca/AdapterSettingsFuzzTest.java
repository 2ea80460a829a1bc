package io.mailbox.connector.jca;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Fuzzing the adapter's settings (issue 20): whatever the deployer put in ra.xml or the pool's
 * properties, the adapter starts with valid settings or refuses with MBX-1008, and a refusal never
 * shows the broker URI's password.
 */
class AdapterSettingsFuzzTest {
  private static final String PASSWORD = "pw-Zk9fQ";

  @Property(tries = 10_000)
  void anySettingsStartTheAdapterOrAreRefusedWithMbx1008(
      @ForAll("text") String providers,
      @ForAll("text") String scope,
      @ForAll("text") String fileRoot,
      @ForAll("uri") String uri,
      @ForAll("text") String delays,
      @ForAll("longs") Long millis,
      @ForAll("ints") Integer count,
      @ForAll("text") String suffix) {
    MailboxResourceAdapter adapter = new MailboxResourceAdapter();
    adapter.setEnabledProviders(providers == null ? "mem" : providers);
    adapter.setMemoryScope(scope);
    adapter.setFileRoot(fileRoot);
    adapter.setAmqpUri(uri);
    adapter.setAmqpRetryDelaysMillis(delays);
    adapter.setAmqpPrefetch(count);
    adapter.setAmqpPublishTimeoutMillis(millis);
    adapter.setJdbcMaxDeliveries(count);
    adapter.setJdbcSubscriberPollMillis(millis);
    adapter.setRetryMaxAttempts(count);
    adapter.setRetryBaseDelayMillis(millis);
    adapter.setDeadLetterEnabled(Boolean.TRUE);
    adapter.setDeadLetterSuffix(suffix);
    adapter.setDeadLetterMaxNesting(count);
    adapter.setLeaseSweepIntervalMillis(millis);
    try {
      AdapterSettings settings = AdapterSettings.of(adapter);
      assertThat(settings.toString()).doesNotContain(PASSWORD);
    } catch (MailboxException e) {
      assertThat(e.errorCode()).isIn(ErrorCode.INVALID_POLICY, ErrorCode.UNKNOWN_SCHEME);
      assertThat(e.getMessage()).startsWith(e.errorCode().code() + " ").doesNotContain(PASSWORD);
    }
  }

  @Provide
  Arbitrary<String> text() {
    return Arbitraries.oneOf(
        Arbitraries.strings().all().ofMaxLength(20),
        Arbitraries.strings().withChars("mem,file jdbc amqp/.\u0000:1-").ofMaxLength(16),
        Arbitraries.of("mem", "application", "1000, 5000", "5000,1000", "-1", "_dlq", "", " "),
        Arbitraries.just(null));
  }

  @Provide
  Arbitrary<String> uri() {
    Arbitrary<String> junk = Arbitraries.strings().all().ofMaxLength(12);
    return Arbitraries.oneOf(
        junk.map(j -> "amqp://user:" + PASSWORD + "@" + j + ":5672/%2F"),
        junk.map(j -> "amqp://user:" + PASSWORD + j + "@host/"),
        junk.map(j -> j + "://user:" + PASSWORD + "@host/"),
        junk,
        Arbitraries.just(null));
  }

  @Provide
  Arbitrary<Long> longs() {
    return Arbitraries.oneOf(
        Arbitraries.longs(),
        Arbitraries.longs().between(-2, 100_000),
        Arbitraries.of(Long.MAX_VALUE, Long.MIN_VALUE),
        Arbitraries.just(null));
  }

  @Provide
  Arbitrary<Integer> ints() {
    return Arbitraries.oneOf(
        Arbitraries.integers(), Arbitraries.integers().between(-2, 70_000), Arbitraries.just(null));
  }
}
