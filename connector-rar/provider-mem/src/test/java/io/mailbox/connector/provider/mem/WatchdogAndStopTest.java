package io.mailbox.connector.provider.mem;

import static io.mailbox.connector.provider.mem.MemoryRig.INBOX;
import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.kernel.RetryPolicy;
import io.mailbox.connector.kernel.Subscription;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Settlement safety nets: the stuck-callback watchdog, and unsubscribe / stop (reference §6). */
class WatchdogAndStopTest {
  private final MemoryRig rig = new MemoryRig();

  @Test
  void aStuckCallbackCannotMakeAMessageInvisible() {
    rig.provider.subscribe(INBOX, ScriptedSubscriber.hanging(new CompletableFuture<>()));
    rig.post("a");
    assertThat(rig.inFlight(INBOX)).isEqualTo(1);

    rig.advance(Duration.ofSeconds(30));

    assertThat(rig.inFlight(INBOX)).isZero();
    assertThat(rig.unread(INBOX)).as("back where fetch can find it").isEqualTo(1);
  }

  @Test
  void aLateAnswerAfterTheWatchdogFiredChangesNothing() {
    CompletableFuture<Void> late = new CompletableFuture<>();
    rig.provider.subscribe(INBOX, ScriptedSubscriber.hanging(late));
    rig.post("a");
    rig.advance(Duration.ofSeconds(30));

    late.complete(null);

    assertThat(rig.unread(INBOX)).isEqualTo(1);
  }

  @Test
  void asynchronousDeliveriesShareOneSweepInsteadOfATimerEach() {
    // A timer per attempt would leave 1,000 here; a server's java.util.Timer would keep each
    // cancelled one, with its copy, for the whole timeout.
    List<CompletableFuture<Void>> answers = subscribeAnsweringLater();
    for (int i = 0; i < 1_000; i++) {
      rig.post("m-" + i);
    }
    assertThat(answers).hasSize(1_000);
    assertThat(rig.scheduler.pending()).as("timers waiting while 1,000 attempts run").isEqualTo(1);

    answers.forEach(answer -> answer.complete(null));
    rig.advance(Duration.ofSeconds(1));

    assertThat(rig.inFlight(INBOX)).isZero();
    assertThat(rig.scheduler.pending()).as("no sweep once nothing is watched").isZero();
  }

  @Test
  void aStuckAttemptAmongSettledOnesTimesOutAtItsDeadlineNotBefore() {
    List<CompletableFuture<Void>> answers = subscribeAnsweringLater();
    rig.post("settles");
    rig.advance(Duration.ofMillis(500));
    rig.post("stuck");
    answers.get(0).complete(null);

    rig.advance(Duration.ofMillis(29_999));
    assertThat(rig.inFlight(INBOX)).as("29.999 s after the post").isEqualTo(1);
    rig.advance(Duration.ofSeconds(1));

    assertThat(rig.inFlight(INBOX)).as("at most a second after its deadline").isZero();
    assertThat(rig.unread(INBOX)).as("back where fetch can find it").isEqualTo(1);
  }

  @Test
  void aTimeoutOfZeroLeavesTheLifecycleToTheCaller() {
    rig.provider.setDeliverySettleTimeout(Duration.ZERO);
    rig.provider.subscribe(INBOX, ScriptedSubscriber.hanging(new CompletableFuture<>()));
    rig.post("a");

    rig.advance(Duration.ofHours(1));

    assertThat(rig.inFlight(INBOX)).isEqualTo(1);
  }

  @Test
  void theWatchdogNeverCountsABackoffWait() {
    rig.provider.setDeliverySettleTimeout(Duration.ofSeconds(5));
    rig.provider.setRetryPolicy(RetryPolicy.of(2, Duration.ofSeconds(60)));
    ScriptedSubscriber recovering = ScriptedSubscriber.recoveringAfter(1);
    rig.provider.subscribe(INBOX, recovering);

    rig.post("a");
    rig.advance(Duration.ofSeconds(61));

    assertThat(recovering.attempts).hasSize(2);
    assertThat(rig.unread(INBOX))
        .as("handled on attempt 2, not cut short during the 60 s wait")
        .isZero();
  }

  @Test
  void unsubscribeNeverPrejudgesARunningCallback() {
    CompletableFuture<Void> running = new CompletableFuture<>();
    Subscription subscription = rig.provider.subscribe(INBOX, ScriptedSubscriber.hanging(running));
    rig.post("a");

    subscription.unsubscribe();
    running.complete(null);

    assertThat(rig.unread(INBOX)).as("it succeeded: not handed to a fetch consumer again").isZero();
    assertThat(rig.inFlight(INBOX)).isZero();
  }

  @Test
  void stopClosesSubscriptionsButARunningCallbackStillSettles() {
    CompletableFuture<Void> running = new CompletableFuture<>();
    rig.provider.subscribe(INBOX, ScriptedSubscriber.hanging(running));
    rig.post("a");

    rig.provider.stop(false);
    running.completeExceptionally(
        new io.mailbox.connector.api.RetriableDeliveryException("late failure"));

    assertThat(rig.provider.subscriptionCount()).isZero();
    assertThat(rig.provider.status(INBOX).extensions()).containsEntry("mem.subscriberCount", 0);
    assertThat(rig.unread(INBOX)).isEqualTo(1);
  }

  @Test
  void stopWithPurgeDropsTheBacklogButStopAloneNeverDeletes() {
    rig.post("a");
    rig.provider.stop(false);
    rig.provider.start();
    assertThat(rig.unread(INBOX)).isEqualTo(1);

    rig.provider.stop(true);
    rig.provider.start();
    assertThat(rig.unread(INBOX)).isZero();
  }

  /** A subscriber that answers each delivery later, when the test completes its future. */
  private List<CompletableFuture<Void>> subscribeAnsweringLater() {
    List<CompletableFuture<Void>> answers = new ArrayList<>();
    rig.provider.subscribe(
        INBOX,
        message -> {
          CompletableFuture<Void> answer = new CompletableFuture<>();
          answers.add(answer);
          return answer;
        });
    return answers;
  }
}
