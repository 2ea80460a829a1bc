package io.mailbox.server.scenarios;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;

/**
 * The scenarios on Payara Server with the documented alternative datasource: PostgreSQL
 * (127.0.0.1:5432, a database of its own created here). After the server stops, the rows are read
 * from PostgreSQL, so the scenarios cannot have passed on a fallback database.
 */
class PayaraServerPostgresScenariosIT extends DeploymentScenarios {
  private static final String SERVER = "jdbc:postgresql://127.0.0.1:5432/postgres";
  private static final String DATABASE = "mailbox_scenarios";
  private static final int PORT_BASE = 28500;

  @Override
  Deployment start() throws Exception {
    try (Connection server = DriverManager.getConnection(SERVER, "postgres", "");
        Statement statement = server.createStatement()) {
      statement.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
      statement.execute("CREATE DATABASE " + DATABASE);
    }
    Deployment started =
        ServerScript.start(
            "Payara Server on PostgreSQL",
            "server-config/payara-server/payara-server.sh",
            Map.of(
                "MAILBOX_DATA",
                ServerScript.freshData("payara-server-postgres").toString(),
                "MAILBOX_PORT_BASE",
                Integer.toString(PORT_BASE),
                "MAILBOX_DATASOURCE",
                "postgresql",
                "MAILBOX_PG_URL",
                "jdbc:postgresql://127.0.0.1:5432/" + DATABASE,
                "MAILBOX_PG_USER",
                "postgres",
                "MAILBOX_PG_PASSWORD",
                "unused-with-trust-auth"),
            PORT_BASE + 80);
    return new Deployment(
        started.server(),
        started.base(),
        () -> {
          started.stop().close();
          ScenarioRows.assertIn("jdbc:postgresql://127.0.0.1:5432/" + DATABASE, "postgres", "");
        });
  }
}
