package io.mailbox.connector.provider.mem;

import static io.mailbox.connector.provider.mem.MemoryRig.INBOX;
import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.kernel.RetryPolicy;
import io.mailbox.connector.kernel.SubscribeOptions;
import io.mailbox.connector.kernel.Subscription;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Opt-in retry of a failing subscriber (reference §4). */
class RetryTest {
  private final MemoryRig rig = new MemoryRig();

  @Test
  void withoutAPolicyARetriableFailureIsRequeuedOnceAndNotRetried() {
    ScriptedSubscriber failing = ScriptedSubscriber.failingRetriably();
    rig.provider.subscribe(INBOX, failing);

    rig.post("a");
    rig.advance(Duration.ofMinutes(10));

    assertThat(failing.attempts).hasSize(1);
    assertThat(rig.unread(INBOX)).isEqualTo(1);
  }

  @Test
  void theCallbackIsRetriedWithExponentialBackoffUpToMaxAttempts() {
    rig.provider.setRetryPolicy(RetryPolicy.of(3, Duration.ofSeconds(1)));
    ScriptedSubscriber failing = ScriptedSubscriber.failingRetriably();
    rig.provider.subscribe(INBOX, failing);

    rig.post("a");
    assertThat(failing.attempts).hasSize(1);
    rig.advance(Duration.ofMillis(999));
    assertThat(failing.attempts).as("not before the first delay").hasSize(1);
    rig.advance(Duration.ofMillis(1));
    assertThat(failing.attempts).hasSize(2);
    rig.advance(Duration.ofMillis(1999));
    assertThat(failing.attempts).as("the second delay doubles").hasSize(2);
    rig.advance(Duration.ofMillis(1));
    assertThat(failing.attempts).hasSize(3);

    assertThat(failing.attemptHeaders()).containsExactly("1", "2", "3");
    assertThat(failing.attempts)
        .allSatisfy(m -> assertThat(m.headers()).containsEntry(SystemHeaders.MAX_ATTEMPTS, "3"));
    assertThat(rig.unread(INBOX)).as("exhausted: back in the queue, once").isEqualTo(1);
    rig.advance(Duration.ofMinutes(5));
    assertThat(failing.attempts).hasSize(3);
  }

  @Test
  void aRecoveringSubscriberIsHandledOnALaterAttempt() {
    rig.provider.setRetryPolicy(RetryPolicy.of(3, Duration.ofSeconds(1)));
    ScriptedSubscriber recovering = ScriptedSubscriber.recoveringAfter(2);
    rig.provider.subscribe(INBOX, recovering);

    rig.post("a");
    rig.advance(Duration.ofSeconds(3));

    assertThat(recovering.attempts).hasSize(3);
    assertThat(rig.unread(INBOX)).isZero();
    assertThat(rig.inFlight(INBOX)).isZero();
  }

  @Test
  void onlyTheFailingSubscriberIsRetried() {
    rig.provider.setRetryPolicy(RetryPolicy.of(3, Duration.ofSeconds(1)));
    ScriptedSubscriber healthy = ScriptedSubscriber.succeeding();
    ScriptedSubscriber failing = ScriptedSubscriber.recoveringAfter(1);
    rig.provider.subscribe(INBOX, healthy);
    rig.provider.subscribe(INBOX, failing);

    rig.post("a");
    rig.advance(Duration.ofSeconds(5));

    assertThat(healthy.attempts).hasSize(1);
    assertThat(failing.attempts).hasSize(2);
  }

  @Test
  void manyFailingSubscribersLeaveExactlyOneCopyInTheQueue() {
    rig.provider.setRetryPolicy(RetryPolicy.of(2, Duration.ofSeconds(1)));
    for (int i = 0; i < 4; i++) {
      rig.provider.subscribe(INBOX, ScriptedSubscriber.failingRetriably());
    }

    rig.post("a");
    rig.advance(Duration.ofSeconds(10));

    assertThat(rig.unread(INBOX)).isEqualTo(1);
  }

  @Test
  void twoMessagesWithTheSameSenderIdKeepTheirOwnRetryBudgets() {
    rig.provider.setRetryPolicy(RetryPolicy.of(2, Duration.ofSeconds(1)));
    ScriptedSubscriber failing = ScriptedSubscriber.failingRetriably();
    rig.provider.subscribe(INBOX, failing);

    rig.post("same");
    rig.post("same");
    rig.advance(Duration.ofSeconds(10));

    assertThat(failing.attemptHeaders()).containsExactlyInAnyOrder("1", "1", "2", "2");
    assertThat(rig.unread(INBOX)).as("both copies, each queued once").isEqualTo(2);
  }

  @Test
  void theRoundCarriesOnAcrossRequeuesWhileTheAttemptRestarts() {
    rig.provider.setRetryPolicy(RetryPolicy.of(2, Duration.ofSeconds(1)));
    ScriptedSubscriber failing = ScriptedSubscriber.failingRetriably();
    Subscription subscription = rig.provider.subscribe(INBOX, failing);
    rig.post("a");
    rig.advance(Duration.ofSeconds(5));
    subscription.unsubscribe();

    MailMessage requeued = rig.lease(Duration.ofSeconds(30)).message();

    assertThat(failing.attempts)
        .allSatisfy(m -> assertThat(m.header(SystemHeaders.ROUND)).contains("1"));
    assertThat(requeued.header(SystemHeaders.ROUND)).contains("2");
    assertThat(requeued.headers())
        .doesNotContainKeys(SystemHeaders.ATTEMPT, SystemHeaders.MAX_ATTEMPTS);
  }

  @Test
  void unsubscribingDuringABackoffCancelsTheRetryAndRequeues() {
    rig.provider.setRetryPolicy(RetryPolicy.of(5, Duration.ofSeconds(10)));
    ScriptedSubscriber failing = ScriptedSubscriber.failingRetriably();
    Subscription subscription = rig.provider.subscribe(INBOX, failing);
    rig.post("a");

    subscription.unsubscribe();
    rig.advance(Duration.ofMinutes(5));

    assertThat(failing.attempts).hasSize(1);
    assertThat(rig.unread(INBOX)).isEqualTo(1);
    assertThat(rig.scheduler.pending()).isZero();
  }

  @Test
  void settingThePolicyToNullReturnsToASingleAttempt() {
    rig.provider.setRetryPolicy(RetryPolicy.of(5, Duration.ofSeconds(1)));
    rig.provider.setRetryPolicy(null);
    ScriptedSubscriber failing = ScriptedSubscriber.failingRetriably();
    rig.provider.subscribe(INBOX, failing);

    rig.post("a");
    rig.advance(Duration.ofMinutes(1));

    assertThat(failing.attempts).hasSize(1);
  }

  @Test
  void aSubscriptionsOwnPolicyOverridesTheProvidersForItAlone() {
    rig.provider.setRetryPolicy(RetryPolicy.of(5, Duration.ofSeconds(1)));
    ScriptedSubscriber own = ScriptedSubscriber.failingRetriably();
    ScriptedSubscriber inherited = ScriptedSubscriber.failingRetriably();
    rig.provider.subscribe(
        INBOX, own, SubscribeOptions.withRetry(RetryPolicy.of(2, Duration.ofSeconds(1))));
    rig.provider.subscribe(INBOX, inherited);

    rig.post("a");
    rig.advance(Duration.ofMinutes(1));

    assertThat(own.attempts).hasSize(2);
    assertThat(inherited.attempts).hasSize(5);
  }

  @Test
  void aFatalFailureIsNeverRetried() {
    rig.provider.setRetryPolicy(RetryPolicy.of(5, Duration.ofSeconds(1)));
    ScriptedSubscriber fatal = ScriptedSubscriber.failingFatally();
    rig.provider.subscribe(INBOX, fatal);

    rig.post("a");
    rig.advance(Duration.ofMinutes(1));

    assertThat(fatal.attempts).hasSize(1);
    assertThat(rig.unread(INBOX)).isZero();
  }
}
