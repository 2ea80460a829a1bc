package io.mailbox.server.scenarios;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;

/**
 * The scenarios on Payara Server with the other documented datasource: MariaDB (127.0.0.1:3306), a
 * database of its own created here with the collation the outbox needs, reached as a user of its
 * own with a password (Payara's pools need one; the machine's root has none). After the server
 * stops, the rows are read from MariaDB, so the scenarios cannot have passed on a fallback
 * database.
 */
class PayaraServerMariaDbScenariosIT extends DeploymentScenarios {
  private static final String SERVER = "jdbc:mariadb://127.0.0.1:3306/";
  private static final String DATABASE = "mailbox_scenarios";
  private static final String USER = "mailbox_scenarios";
  private static final String PASSWORD = "scenarios-password";
  private static final int PORT_BASE = 28600;

  @Override
  Deployment start() throws Exception {
    try (Connection server = DriverManager.getConnection(SERVER, "root", "");
        Statement statement = server.createStatement()) {
      statement.execute("DROP DATABASE IF EXISTS " + DATABASE);
      // Positions compare as written (docs/outbox.md, "Tables").
      statement.execute(
          "CREATE DATABASE " + DATABASE + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
      for (String host : new String[] {"localhost", "127.0.0.1", "%"}) {
        String account = "'" + USER + "'@'" + host + "'";
        statement.execute("CREATE USER IF NOT EXISTS " + account);
        statement.execute("ALTER USER " + account + " IDENTIFIED BY '" + PASSWORD + "'");
        statement.execute("GRANT ALL ON " + DATABASE + ".* TO " + account);
      }
    }
    applyTheShippedDdl();
    Deployment started =
        ServerScript.start(
            "Payara Server on MariaDB",
            "server-config/payara-server/payara-server.sh",
            Map.of(
                "MAILBOX_DATA",
                ServerScript.freshData("payara-server-mariadb").toString(),
                "MAILBOX_PORT_BASE",
                Integer.toString(PORT_BASE),
                "MAILBOX_DATASOURCE",
                "mariadb",
                "MAILBOX_MARIADB_URL",
                SERVER + DATABASE,
                "MAILBOX_MARIADB_USER",
                USER,
                "MAILBOX_MARIADB_PASSWORD",
                PASSWORD),
            PORT_BASE + 80);
    return new Deployment(
        started.server(),
        started.base(),
        () -> {
          started.stop().close();
          ScenarioRows.assertIn(SERVER + DATABASE, "root", "");
        });
  }

  /**
   * As an operator does before the first start (docs/deployment.md): EclipseLink cannot create the
   * outbox's and inbox's long text columns on MariaDB; it creates the other tables itself.
   */
  private static void applyTheShippedDdl() throws Exception {
    try (Connection database = DriverManager.getConnection(SERVER + DATABASE, "root", "");
        Statement statement = database.createStatement()) {
      for (String file : new String[] {"outbox.sql", "inbox.sql", "queue.sql"}) {
        String ddl =
            Files.readString(
                ServerScript.REPOSITORY.resolve("server-config/sql/mariadb").resolve(file));
        for (String part : ddl.replaceAll("(?m)^--.*$", "").split(";")) {
          if (!part.isBlank()) {
            statement.execute(part);
          }
        }
      }
    }
  }
}
