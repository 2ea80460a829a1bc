package io.mailbox.connector.provider.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import org.junit.jupiter.api.Test;

/** Which failures of a post's INSERT are its publish bound running out (then MBX-2009). */
class QueryTimeoutTest {
  @Test
  void eachDriversWayOfSayingTheQueryTimeoutRanOutIsRecognised() {
    assertThat(QueueWriter.isQueryTimeout(new SQLTimeoutException("H2, MariaDB"))).isTrue();
    assertThat(QueueWriter.isQueryTimeout(new SQLException("canceling statement", "57014")))
        .as("PostgreSQL cancels the statement")
        .isTrue();
    assertThat(QueueWriter.isQueryTimeout(new SQLException("max_statement_time", "70100")))
        .as("MariaDB's server aborts it")
        .isTrue();
    assertThat(
            QueueWriter.isQueryTimeout(
                new IllegalStateException(new JdbcQueueException(new SQLTimeoutException()))))
        .as("wrapped on its way up")
        .isTrue();
  }

  @Test
  void otherFailuresAreNotTimeouts() {
    assertThat(QueueWriter.isQueryTimeout(new SQLException("duplicate key", "23505"))).isFalse();
    assertThat(QueueWriter.isQueryTimeout(new SQLException("connection refused", "08001")))
        .isFalse();
    assertThat(QueueWriter.isQueryTimeout(new IllegalStateException("no cause"))).isFalse();
  }
}
