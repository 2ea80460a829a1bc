package io.mailbox.connector.jca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.ProviderFactory;
import io.mailbox.connector.spi.ProviderSettings;
import io.mailbox.connector.spi.Scheduler;
import io.mailbox.connector.spi.Setting;
import io.mailbox.connector.spi.Transport;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The adapter's bean properties become policies at start, or are refused with a code. */
class AdapterSettingsTest {

  @Test
  void theJdbcDefaultsMatchRaXml() {
    var jdbc =
        (io.mailbox.connector.provider.jdbc.JdbcProviderFactory.Configuration)
            configuration(new MailboxResourceAdapter(), "jdbc");

    assertThat(jdbc.dataSource()).isEqualTo("jdbc/__default");
    assertThat(jdbc.maxDeliveries()).isEqualTo(10);
    assertThat(jdbc.timeToLive()).isZero();
    assertThat(jdbc.dedupeWindow()).isZero();
    assertThat(jdbc.subscriberPoll()).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void aSubscriberPollOfZeroIsRefusedBeforeAnythingStarts() {
    MailboxResourceAdapter adapter = new MailboxResourceAdapter();
    adapter.setJdbcSubscriberPollMillis(0L);

    assertThatThrownBy(() -> AdapterSettings.of(adapter))
        .isInstanceOf(MailboxException.class)
        .hasMessageContaining("jdbcSubscriberPollMillis")
        .satisfies(
            e ->
                assertThat(((MailboxException) e).errorCode()).isEqualTo(ErrorCode.INVALID_POLICY));
  }

  @Test
  void aNegativeDedupeWindowIsRefused() {
    MailboxResourceAdapter adapter = new MailboxResourceAdapter();
    adapter.setJdbcDedupeWindowMillis(-1L);

    assertThatThrownBy(() -> AdapterSettings.of(adapter))
        .isInstanceOf(MailboxException.class)
        .hasMessageContaining("jdbcDedupeWindowMillis");
  }

  @Test
  void theAmqpDefaultsMatchRaXml() {
    var amqp =
        (io.mailbox.connector.provider.amqp.AmqpSettings)
            configuration(new MailboxResourceAdapter(), "amqp");

    assertThat(amqp.where()).isEqualTo("127.0.0.1:5672");
    assertThat(amqp.prefetch()).isEqualTo(250);
    assertThat(amqp.publishTimeout()).isEqualTo(Duration.ofSeconds(15));
    assertThat(amqp.retryDelaysMillis()).containsExactly(1_000L, 5_000L, 30_000L);
    assertThat(amqp.maxDeliveries()).isEqualTo(10);
  }

  @Test
  void anUnusableBrokerUriIsRefusedWithoutShowingIt() {
    MailboxResourceAdapter adapter = new MailboxResourceAdapter();
    adapter.setAmqpUri("http://admin:hunter2@rabbit:5672/");

    assertThatThrownBy(() -> AdapterSettings.of(adapter))
        .hasMessageStartingWith("MBX-1008")
        .hasMessageContaining("amqpUri")
        .hasMessageNotContaining("hunter2");
  }

  @Test
  void aZeroPrefetchAndDecreasingRetryDelaysAreRefused() {
    MailboxResourceAdapter noPrefetch = new MailboxResourceAdapter();
    noPrefetch.setAmqpPrefetch(0);
    MailboxResourceAdapter decreasing = new MailboxResourceAdapter();
    decreasing.setAmqpRetryDelaysMillis("5000, 1000");

    assertThatThrownBy(() -> AdapterSettings.of(noPrefetch)).hasMessageContaining("amqpPrefetch");
    assertThatThrownBy(() -> AdapterSettings.of(decreasing))
        .hasMessageContaining("amqpRetryDelaysMillis");
  }

  @Test
  void everyShippedProviderIsFoundThroughItsFactoryAndAnUnknownSchemeIsRefusedNamingThem() {
    assertThat(AdapterSettings.of(new MailboxResourceAdapter()).providers())
        .containsOnlyKeys("amqp", "file", "jdbc", "kafka", "mem", "nats", "redis");
    MailboxResourceAdapter adapter = new MailboxResourceAdapter();
    adapter.setEnabledProviders("mem, mqtt");

    assertThatThrownBy(() -> AdapterSettings.of(adapter))
        .hasMessageStartingWith("MBX-1003")
        .hasMessageContaining("'mqtt'")
        .hasMessageContaining("[amqp, file, jdbc, kafka, mem, nats, redis]");
  }

  @Test
  void aProviderThatIsNotShippedReadsItsSettingsFromProviderSettings() {
    MailboxResourceAdapter adapter = new MailboxResourceAdapter();
    adapter.setEnabledProviders("tiny");
    adapter.setProviderSettings("tinyGreeting=hello\\;world; tinyLimit=7");

    AdapterSettings settings = AdapterSettings.of(adapter, List.of(new TinyFactory()));

    assertThat(settings.providers().get("tiny").configuration()).isEqualTo("hello;world/7");
  }

  @Test
  void aProviderSettingOutOfRangeIsRefusedNamingItAndTwoFactoriesForOneSchemeAreRefused() {
    MailboxResourceAdapter adapter = new MailboxResourceAdapter();
    adapter.setProviderSettings("tinyLimit=-3");
    assertThatThrownBy(() -> AdapterSettings.of(adapter, List.of(new TinyFactory())))
        .hasMessageStartingWith("MBX-1008")
        .hasMessageContaining("tinyLimit");

    adapter.setProviderSettings("no equals sign");
    assertThatThrownBy(() -> AdapterSettings.of(adapter, List.of(new TinyFactory())))
        .hasMessageStartingWith("MBX-1008")
        .hasMessageContaining("providerSettings");

    assertThatThrownBy(
            () -> ProviderFactories.checked(List.of(new TinyFactory(), new TinyFactory())))
        .hasMessageStartingWith("MBX-1005")
        .hasMessageContaining("'tiny'");
  }

  private static Object configuration(MailboxResourceAdapter adapter, String scheme) {
    return AdapterSettings.of(adapter).providers().get(scheme).configuration();
  }

  /** A provider a third party ships: known to the adapter only through its factory. */
  private static final class TinyFactory implements ProviderFactory<String> {
    static final Setting GREETING = Setting.text("tinyGreeting", "hi", "what it says");
    static final Setting LIMIT = Setting.integer("tinyLimit", 1, "how many");

    @Override
    public String scheme() {
      return "tiny";
    }

    @Override
    public List<Setting> settings() {
      return List.of(GREETING, LIMIT);
    }

    @Override
    public String configure(ProviderSettings settings) {
      return settings.text(GREETING) + "/" + settings.integer(LIMIT, 0);
    }

    @Override
    public Transport create(String configuration, Scheduler scheduler) {
      throw new UnsupportedOperationException("not started in this test");
    }
  }
}
