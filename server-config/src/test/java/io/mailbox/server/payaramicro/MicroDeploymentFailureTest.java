package io.mailbox.server.payaramicro;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the start script reads Payara Micro's log while it waits (mailbox_micro_deployment_failure in
 * server-config/common.sh): only Payara's race (a deployment that lost its class loader to a
 * garbage collection) earns a second start; any other failed deployment stops the script at once.
 * The logs are excerpts of real ones.
 */
class MicroDeploymentFailureTest {
  @TempDir Path folder;

  @Test
  void aDeploymentWithoutAContextClassLoaderIsPayarasRace() throws Exception {
    // From a CI run of 2026-12-07 (RedisChannelsIT): the adapter's deploy, first of the post-boot
    // commands, failed in Payara's connector validator; the wars then deployed without it.
    String log =
        """
        [2026-12-07T15:53:43.042+0000] [] [SEVERE] [] [javax.enterprise.system.core] [tid: _ThreadID=1 _ThreadName=main] Exception while deploying the app [mailbox-connector]
        java.lang.NullPointerException: Cannot invoke "java.lang.ClassLoader.loadClass(String)" because the return value of "java.lang.Thread.getContextClassLoader()" is null
        \tat com.sun.enterprise.connectors.deployment.util.ConnectorValidator.getClass(ConnectorValidator.java:244)
        [2026-12-07T15:53:43.063+0000] [] [WARNING] [] [fish.payara.boot.runtime.BootCommand] Boot Command create-connector-connection-pool failed PlainTextActionReporterFAILUREInvalid name. Connector Module with name mailbox-connector not found.
        """;

    assertThat(outcomeOf(log)).isEqualTo("boot-fault");
    assertThat(outcomeOf(log.replace("deploying the app [mailbox-connector]", "loading the app")))
        .as("the same race in a war given with --deploy")
        .isEqualTo("boot-fault");
  }

  @Test
  void anyOtherFailedDeploymentStopsTheStart() throws Exception {
    String adapterRefused =
        """
        [SEVERE] Exception while deploying the app [mailbox-connector] : MBX-1008 kafkaQueueBatch must be 1..4000
        """;
    String warRefused =
        """
        [SEVERE] Exception while loading the app : CDI deployment failure:WELD-001408: Unsatisfied dependencies
        """;

    assertThat(outcomeOf(adapterRefused)).isEqualTo("deployment-failed");
    assertThat(outcomeOf(warRefused)).isEqualTo("deployment-failed");
  }

  @Test
  void theExceptionWithoutAFailedDeploymentIsNoFailure() throws Exception {
    String log =
        """
        [WARNING] java.lang.NullPointerException: Cannot invoke "java.lang.ClassLoader.loadClass(String)" because the return value of "java.lang.Thread.getContextClassLoader()" is null
        [INFO] Payara Micro 6.2025.10 (build 42) ready in 14,232 (ms)
        """;

    assertThat(outcomeOf(log)).isEmpty();
  }

  @Test
  void aLogNotWrittenYetHasNoFailure() throws Exception {
    assertThat(CommonScript.run("mailbox_micro_deployment_failure", Map.of(), "/nonexistent/log"))
        .isEmpty();
  }

  @Test
  void aHealthyStartHasNoFailure() throws Exception {
    String log =
        """
        [INFO] Deployed 1 archive(s)
        [INFO] Payara Micro 6.2025.10 (build 42) ready in 14,232 (ms)
        """;

    assertThat(outcomeOf(log)).isEmpty();
  }

  private String outcomeOf(String log) throws Exception {
    Path file = folder.resolve("payara-micro.log");
    Files.writeString(file, log);
    return CommonScript.run("mailbox_micro_deployment_failure", Map.of(), file.toString());
  }
}
