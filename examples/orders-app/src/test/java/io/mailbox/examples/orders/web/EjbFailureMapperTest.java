package io.mailbox.examples.orders.web;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ejb.EJBException;
import jakarta.persistence.PersistenceException;
import jakarta.resource.spi.ResourceAllocationException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;

class EjbFailureMapperTest {
  @Test
  void aConnectionFailureAnywhereInTheChainIsTransient() {
    EJBException refused =
        new EJBException(
            new PersistenceException(
                new SQLException("Connection to 127.0.0.1:5432 refused", "08001")));
    assertThat(EjbFailureMapper.databaseUnreachable(refused)).isTrue();
    assertThat(
            EjbFailureMapper.databaseUnreachable(
                new EJBException(new SQLTransientConnectionException("pool timed out"))))
        .isTrue();
    assertThat(
            EjbFailureMapper.databaseUnreachable(
                new EJBException(new SQLException("terminating connection", "57P01"))))
        .isTrue();
    SQLException pool = new SQLException("Error in allocating a connection");
    pool.initCause(new ResourceAllocationException("the physical connection is not usable"));
    assertThat(
            EjbFailureMapper.databaseUnreachable(new EJBException(new PersistenceException(pool))))
        .isTrue();
  }

  @Test
  void thePoolsOwnRaceWhileFailingItsConnectionsIsTransient() {
    IllegalStateException race = new IllegalStateException("Task already scheduled or cancelled");
    race.setStackTrace(
        new StackTraceElement[] {
          new StackTraceElement("java.util.Timer", "sched", "Timer.java", 413),
          new StackTraceElement(
              "com.sun.enterprise.resource.pool.ConnectionPool",
              "scheduleResizerTask",
              "ConnectionPool.java",
              271)
        });
    assertThat(EjbFailureMapper.databaseUnreachable(new EJBException(race))).isTrue();
  }

  @Test
  void aConstraintViolationOrAnyOtherFailureIsNot() {
    assertThat(
            EjbFailureMapper.databaseUnreachable(
                new EJBException(new SQLException("duplicate key", "23505"))))
        .isFalse();
    assertThat(EjbFailureMapper.databaseUnreachable(new EJBException(new IllegalStateException())))
        .isFalse();
    assertThat(EjbFailureMapper.databaseUnreachable(new EJBException())).isFalse();
  }
}
