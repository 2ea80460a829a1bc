package io.mailbox.connector.provider.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * A separate JVM posts and leases with manual acks and is killed with SIGKILL while leases are out;
 * a new provider on the same PostgreSQL table then redelivers every committed-but-unacked message
 * and loses none.
 */
class JdbcCrashIT {
  private static final int COUNT = 100;

  @Test
  void afterASigkillEveryCommittedButUnackedMessageIsRedeliveredAndNoneIsLost() throws Exception {
    DataSource database = QueueDatabase.postgres();
    Process worker =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                CrashWorker.class.getName(),
                Integer.toString(COUNT))
            .redirectErrorStream(true)
            .start();
    Set<String> posted = new HashSet<>();
    Set<String> acked = new HashSet<>();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(worker.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && !line.startsWith("READY")) {
        if (line.startsWith("POSTED ")) {
          posted.add(line.substring(7));
        } else if (line.startsWith("ACKED ")) {
          acked.add(line.substring(6));
        }
      }
      assertThat(line).as("the worker reached its kill point").startsWith("READY");
    }
    worker.destroyForcibly(); // SIGKILL: no shutdown hook, no cleanup
    assertThat(worker.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(posted).hasSize(COUNT);
    assertThat(acked).hasSize(COUNT / 2);

    MailboxProvider reopened =
        MailboxProvider.of(new JdbcProvider(database, Clock.systemUTC(), new ExecutorScheduler()));
    reopened.start();
    assertThat(reopened.status(CrashWorker.QUEUE).inFlightCount())
        .as("the dead worker's leases")
        .isEqualTo(COUNT / 2);
    Thread.sleep(CrashWorker.LEASE.toMillis() + 200); // the leases end

    List<Delivery> redelivered =
        reopened.fetch(CrashWorker.QUEUE, FetchOptions.leased().limit(COUNT));
    Set<String> again = new HashSet<>();
    redelivered.forEach(d -> again.add(d.message().id()));
    Set<String> unacked = new HashSet<>(posted);
    unacked.removeAll(acked);

    assertThat(again).as("every committed-but-unacked message, and only those").isEqualTo(unacked);
    redelivered.forEach(Delivery::ack);
    assertThat(reopened.status(CrashWorker.QUEUE).unreadCount()).isZero();
    assertThat(reopened.status(CrashWorker.QUEUE).inFlightCount()).isZero();
  }
}
