package io.mailbox.ejb.testsupport;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.Persistence;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.function.Function;

/**
 * One real database for a suite: the shipped DDL ({@code server-config/sql/<kind>/*.sql}) applied
 * to fresh tables, and resource-local JPA on top. {@link #transactional} wraps a store so every
 * call is its own transaction, as the server's REQUIRES_NEW beans do.
 */
public final class TestDatabase implements AutoCloseable {
  private final String kind;
  private final String url;
  private final String user;
  private final EntityManagerFactory factory;

  private TestDatabase(String kind, String url, String user) {
    this.kind = kind;
    this.url = url;
    this.user = user;
    this.factory =
        Persistence.createEntityManagerFactory(
            "mailbox-local",
            Map.of(
                "jakarta.persistence.jdbc.url", url,
                "jakarta.persistence.jdbc.user", user,
                "jakarta.persistence.jdbc.password", ""));
  }

  public static TestDatabase h2(String name) {
    return create("h2", "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1;MODE=LEGACY", "sa");
  }

  public static TestDatabase postgres() {
    return create("postgresql", "jdbc:postgresql://127.0.0.1:5432/test", "postgres");
  }

  /**
   * The isolation the product asks of a MariaDB pool (docs/outbox.md): at the server's default,
   * REPEATABLE READ, the relay's batch statements and the application's inserts deadlock ({@code
   * io.mailbox.ejb.outbox.StoreIsolation}).
   */
  public static final String MARIADB_ISOLATION = "transactionIsolation=READ-COMMITTED";

  public static TestDatabase mariadb() {
    return create("mariadb", "jdbc:mariadb://127.0.0.1:3306/test?" + MARIADB_ISOLATION, "root");
  }

  private static TestDatabase create(String kind, String url, String user) {
    try (Connection connection = DriverManager.getConnection(url, user, "");
        Statement statement = connection.createStatement()) {
      for (String table : new String[] {"MBX_OUTBOX", "MBX_INBOX", "TEST_EFFECT"}) {
        statement.execute("DROP TABLE IF EXISTS " + table);
      }
      Path sql = Path.of(System.getProperty("mailbox.sql", "../server-config/sql")).resolve(kind);
      for (String script : new String[] {"outbox.sql", "inbox.sql"}) {
        String withoutComments = Files.readString(sql.resolve(script)).replaceAll("(?m)^--.*$", "");
        for (String ddl : withoutComments.split(";")) {
          if (!ddl.isBlank()) {
            statement.execute(ddl.strip());
          }
        }
      }
      statement.execute(
          "CREATE TABLE TEST_EFFECT (ID VARCHAR(80) NOT NULL PRIMARY KEY, EVENT_ID VARCHAR(128) NOT NULL)");
    } catch (SQLException | java.io.IOException e) {
      throw new IllegalStateException(
          "Could not prepare the " + kind + " test database at " + url, e);
    }
    return new TestDatabase(kind, url, user);
  }

  public String kind() {
    return kind;
  }

  public EntityManagerFactory factory() {
    return factory;
  }

  public Connection jdbc() throws SQLException {
    return DriverManager.getConnection(url, user, "");
  }

  /** Runs {@code work} in one resource-local transaction; rolls back when it throws. */
  public <T> T inTransaction(Function<EntityManager, T> work) {
    EntityManager em = factory.createEntityManager();
    EntityTransaction tx = em.getTransaction();
    try {
      tx.begin();
      T result = work.apply(em);
      tx.commit();
      return result;
    } finally {
      if (tx.isActive()) {
        tx.rollback();
      }
      em.close();
    }
  }

  /** A proxy of {@code type} whose every call runs {@code create(em)} in its own transaction. */
  @SuppressWarnings("unchecked")
  public <S> S transactional(Class<S> type, Function<EntityManager, S> create) {
    InvocationHandler handler =
        (proxy, method, args) ->
            inTransaction(
                em -> {
                  try {
                    return method.invoke(create.apply(em), args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause() instanceof RuntimeException runtime
                        ? runtime
                        : new IllegalStateException(e.getCause());
                  } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                  }
                });
    return (S) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler);
  }

  @Override
  public void close() {
    factory.close();
  }
}
