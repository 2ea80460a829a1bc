package io.mailbox.server.payaramicro;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs the README's start script the way a user does (detached, on its own port and data folder),
 * then checks over HTTP and in headless Chromium that the console, the example and the health check
 * answer. Stops the server it started, by its process id.
 *
 * <p>One server for every test: a boot costs about a minute, and the checks after the last test
 * (secrets never logged, the committed rows in the H2 file) depend on what all the tests did. So
 * this class owns the server's lifecycle and the tests' names, and each test runs its body in a
 * journey class of this package: {@link StartedServerChecks}, {@link ConsoleJourneys}, {@link
 * AdminApiChecks}, {@link AdminApiRefusals}, {@link OrderJourneys}, {@link OutageRepairJourney},
 * {@link MetricsAndAlertsChecks}; the server and its helpers are in {@link SmokeServer}, the checks
 * after the run in {@link StoppedServerChecks}.
 */
class RunScriptSmokeIT {
  @BeforeAll
  static void startTheProductWithTheRunScript() throws Exception {
    SmokeServer.startFresh();
  }

  @AfterAll
  static void stopTheServerByItsPid() throws Exception {
    if (SmokeServer.pid() == 0) {
      return;
    }
    SmokeServer.stopServer();
    assertThat(ProcessHandle.of(SmokeServer.pid()).map(ProcessHandle::isAlive))
        .as("server stopped")
        .isNotEqualTo(Optional.of(true));
    // First: it needs nothing but the log, and must run even if a row count below is off.
    StoppedServerChecks.assertNoConfiguredSecretIsInTheLog();
    StoppedServerChecks.assertCommittedRowsOutliveTheServer();
  }

  @Test
  void refusedAdminCallsNeverCarryAConfiguredSecretInTheirErrorBodies() throws Exception {
    AdminApiRefusals.refusedAdminCallsNeverCarryAConfiguredSecretInTheirErrorBodies();
  }

  @Test
  void theScriptPrintsWhereTheConsoleIsAndHowToSignIn() {
    StartedServerChecks.theScriptPrintsWhereTheConsoleIsAndHowToSignIn();
  }

  /** Nothing listens beyond the HTTP port; the data folder is its owner's only. */
  @Test
  void theServerListensOnItsHttpPortOnlyAndKeepsItsDataPrivate() throws Exception {
    StartedServerChecks.theServerListensOnItsHttpPortOnlyAndKeepsItsDataPrivate();
  }

  @Test
  void theConsoleAnswersWithTheSignInPage() throws Exception {
    ConsoleJourneys.theConsoleAnswersWithTheSignInPage();
  }

  @Test
  void aWrongPasswordIsRefusedAndTheDashboardStaysClosed() throws Exception {
    ConsoleJourneys.aWrongPasswordIsRefusedAndTheDashboardStaysClosed();
  }

  @Test
  void aSignedInOperatorSeesTheExamplesAddressAfterItPosted() throws Exception {
    ConsoleJourneys.aSignedInOperatorSeesTheExamplesAddressAfterItPosted();
  }

  @Test
  void anOperatorSeesTheOutboxParkedAndAuditViewsWithTheirControls() throws Exception {
    ConsoleJourneys.anOperatorSeesTheOutboxParkedAndAuditViewsWithTheirControls();
  }

  @Test
  void anOperatorSendsATestMessageFromTheAddressViewAndItIsQueuedAndAudited() throws Exception {
    ConsoleJourneys.anOperatorSendsATestMessageFromTheAddressViewAndItIsQueuedAndAudited();
  }

  @Test
  void aBacklogOverItsAlertRuleShowsOnTheDashboardInReadinessAndInTheMetricsUntilPurged()
      throws Exception {
    MetricsAndAlertsChecks
        .aBacklogOverItsAlertRuleShowsOnTheDashboardInReadinessAndInTheMetricsUntilPurged();
  }

  @Test
  void anOperatorOpensAQueuedMessageInFullMovesItAndDeletesAnother() throws Exception {
    ConsoleJourneys.anOperatorOpensAQueuedMessageInFullMovesItAndDeletesAnother();
  }

  @Test
  void theAddressViewChartsWhatWasPostedAndDeliveredPerSecond() throws Exception {
    MetricsAndAlertsChecks.theAddressViewChartsWhatWasPostedAndDeliveredPerSecond();
  }

  @Test
  void anOrderIsFollowedFromItsOutboxRowThroughADeadLetterToItsReplayAndInboxMarker()
      throws Exception {
    OrderJourneys.anOrderIsFollowedFromItsOutboxRowThroughADeadLetterToItsReplayAndInboxMarker();
  }

  /** Replayed from the address view's message panel and from the dead-letter view. */
  @Test
  void shippingRequestsThatDiedWhileTheCourierWasDownAreReplayedFromTheConsoleAndShipped()
      throws Exception {
    OrderJourneys
        .shippingRequestsThatDiedWhileTheCourierWasDownAreReplayedFromTheConsoleAndShipped();
  }

  /** Stops and restarts the server: an outage's leftovers are written into its database. */
  @Test
  void anOperatorReleasesAFailedOutboxRowAndPurgesAParkedRecordFromTheConsole() throws Exception {
    OutageRepairJourney.anOperatorReleasesAFailedOutboxRowAndPurgesAParkedRecordFromTheConsole();
  }

  @Test
  void aViewerSeesEveryViewButNoControlThatChangesAnything() throws Exception {
    ConsoleJourneys.aViewerSeesEveryViewButNoControlThatChangesAnything();
  }

  @Test
  void theAdaptersAndTheOutboxsReadinessChecksAreUpAndRegisteredOncePerServer() throws Exception {
    StartedServerChecks.theAdaptersAndTheOutboxsReadinessChecksAreUpAndRegisteredOncePerServer();
  }

  @Test
  void aRolledBackOrderLeavesNothingBehindNeitherRowNorEventNorLetter() throws Exception {
    OrderJourneys.aRolledBackOrderLeavesNothingBehindNeitherRowNorEventNorLetter();
  }

  @Test
  void theRelaysMetricsCountWhatItPublished() throws Exception {
    MetricsAndAlertsChecks.theRelaysMetricsCountWhatItPublished();
  }

  @Test
  void everyAddressesTrafficIsCountedLiveWithoutAnyonePollingHealth() throws Exception {
    MetricsAndAlertsChecks.everyAddressesTrafficIsCountedLiveWithoutAnyonePollingHealth();
  }

  @Test
  void theAdminApiAnswersEveryEndpointByRole() throws Exception {
    AdminApiChecks.theAdminApiAnswersEveryEndpointByRole();
  }

  @Test
  void everyChangeThroughTheApiIsAuditedWithWhoDidIt() throws Exception {
    AdminApiChecks.everyChangeThroughTheApiIsAuditedWithWhoDidIt();
  }

  @Test
  void badApiInputIsRefusedWithAStableCode() throws Exception {
    AdminApiChecks.badApiInputIsRefusedWithAStableCode();
  }

  @Test
  void theServerPublishesTheApisOpenApiDocument() throws Exception {
    StartedServerChecks.theServerPublishesTheApisOpenApiDocument();
  }

  @Test
  void badOrderInputIsRefusedWithACode() throws Exception {
    OrderJourneys.badOrderInputIsRefusedWithACode();
  }

  @Test
  void anOrderSentAgainWithItsIdempotencyKeyIsAnsweredNotPlacedTwice() throws Exception {
    OrderJourneys.anOrderSentAgainWithItsIdempotencyKeyIsAnsweredNotPlacedTwice();
  }

  @Test
  void everyRefusalOfTheAdminApiIsJsonWithAStableCodeAndNoEchoOfTheRefusedValue() throws Exception {
    AdminApiRefusals.everyRefusalOfTheAdminApiIsJsonWithAStableCodeAndNoEchoOfTheRefusedValue();
  }

  @Test
  void aSignedInConsoleSessionCookieAloneCannotChangeAnythingThroughTheAdminApi() throws Exception {
    AdminApiRefusals.aSignedInConsoleSessionCookieAloneCannotChangeAnythingThroughTheAdminApi();
  }

  @Test
  void everyResponseCarriesTheBrowserSecurityHeaders() throws Exception {
    AdminApiRefusals.everyResponseCarriesTheBrowserSecurityHeaders();
  }

  @Test
  void purgingEveryParkedRecordOfAnAddressNeedsTheAddressRepeated() throws Exception {
    AdminApiChecks.purgingEveryParkedRecordOfAnAddressNeedsTheAddressRepeated();
  }

  @Test
  void releasingTwentyOutboxRowsAnswersAndIsAuditedHoweverLongItsTarget() throws Exception {
    AdminApiChecks.releasingTwentyOutboxRowsAnswersAndIsAuditedHoweverLongItsTarget();
  }

  @Test
  void aBodyOverTheLimitIsRefusedWith413() throws Exception {
    AdminApiRefusals.aBodyOverTheLimitIsRefusedWith413();
  }

  @Test
  void repeatedWrongPasswordsAreThrottledAndEveryRefusalIsAudited() throws Exception {
    AdminApiRefusals.repeatedWrongPasswordsAreThrottledAndEveryRefusalIsAudited();
  }
}
