package io.mailbox.connector.provider.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import java.time.Clock;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

class JdbcProviderTableTest {

  @Test
  void aMissingQueueTableIsCreatedWithTheBundledDdlWhenAsked() {
    JdbcDataSource empty = new JdbcDataSource();
    empty.setURL("jdbc:h2:mem:empty-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1;MODE=LEGACY");
    empty.setUser("sa");
    MailboxProvider provider =
        MailboxProvider.of(
            new JdbcProvider(empty, Clock.systemUTC(), new ExecutorScheduler(), true));

    provider.start();
    provider.post(MailMessage.to("jdbc:a@b/c").body("{}").build());
    provider.stop(false);
    provider.start(); // the table exists now: nothing to create, nothing lost

    assertThat(provider.status(MailAddress.parse("jdbc:a@b/c")).unreadCount()).isEqualTo(1);
  }
}
