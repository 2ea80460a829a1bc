package io.mailbox.connector.jca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The adapter's bean properties become policies at start, or are refused with a code. */
class AdapterSettingsTest {

  @Test
  void theJdbcDefaultsMatchRaXml() {
    AdapterSettings settings = AdapterSettings.of(new MailboxResourceAdapter());

    assertThat(settings.jdbcDataSource()).isEqualTo("jdbc/__default");
    assertThat(settings.jdbcMaxDeliveries()).isEqualTo(10);
    assertThat(settings.jdbcTimeToLive()).isZero();
    assertThat(settings.jdbcDedupeWindow()).isZero();
    assertThat(settings.jdbcSubscriberPoll()).isEqualTo(Duration.ofSeconds(1));
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
    var amqp = AdapterSettings.of(new MailboxResourceAdapter()).amqp();

    assertThat(amqp.where()).isEqualTo("127.0.0.1:5672");
    assertThat(amqp.prefetch()).isEqualTo(32);
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
}
