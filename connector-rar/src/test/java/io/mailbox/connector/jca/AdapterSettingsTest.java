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
}
