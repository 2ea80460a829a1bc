package io.mailbox.connector.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.Retriable;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

  @Test
  void theDelayDoublesPerAttemptUpToTheCap() {
    RetryPolicy policy = new RetryPolicy(10, Duration.ofMillis(100), Duration.ofMillis(1000));

    assertThat(policy.delayAfter(1)).isEqualTo(Duration.ofMillis(100));
    assertThat(policy.delayAfter(2)).isEqualTo(Duration.ofMillis(200));
    assertThat(policy.delayAfter(4)).isEqualTo(Duration.ofMillis(800));
    assertThat(policy.delayAfter(5)).isEqualTo(Duration.ofMillis(1000));
    assertThat(policy.delayAfter(64)).isEqualTo(Duration.ofMillis(1000));
  }

  @Test
  void nonsensicalPoliciesAreRefused() {
    assertThatThrownBy(() -> RetryPolicy.of(0, Duration.ofSeconds(1)))
        .hasMessageStartingWith("MBX-1008");
    assertThatThrownBy(() -> RetryPolicy.of(3, Duration.ofSeconds(-1)))
        .hasMessageStartingWith("MBX-1008");
    assertThatThrownBy(() -> new RetryPolicy(3, Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .hasMessageStartingWith("MBX-1008");
  }

  @Test
  void timeoutsAndResetConnectionsAndSelfDeclaredFailuresAreRetriable() {
    assertThat(Disposition.isRetriable(new SocketTimeoutException())).isTrue();
    assertThat(Disposition.isRetriable(new java.net.ConnectException())).isTrue();
    assertThat(Disposition.isRetriable(new RuntimeException(new TimeoutException()))).isTrue();
    assertThat(Disposition.isRetriable(new UpstreamFailure(503))).isTrue();
    assertThat(Disposition.isRetriable(new UpstreamFailure(400))).isFalse();
    assertThat(Disposition.isRetriable(new IllegalStateException())).isFalse();
  }

  @Test
  void anUnreachableBrokerIsRetriableAndARefusalIsNot() {
    // A channel's outgoing post failing in a broker outage must leave its incoming message
    // unhandled (retried), not dead-letter it (found by NatsChannelsIT killing the server).
    assertThat(
            Disposition.of(
                new MailboxException(ErrorCode.CONNECTION_UNAVAILABLE, "the broker is away")))
        .isEqualTo(Disposition.UNHANDLED);
    assertThat(Disposition.of(new MailboxException(ErrorCode.INVALID_MESSAGE, "too large")))
        .isEqualTo(Disposition.DISCARD);
    assertThat(
            Disposition.isRetriable(
                new MailboxException(
                    ErrorCode.INTERNAL, "wrapped", new java.net.ConnectException("refused"))))
        .isTrue();
  }

  @Test
  void customDispositionsHaveValidatedNamesAndCoreNamesMapToTheCoreOnes() {
    assertThat(Disposition.custom("Handled")).isSameAs(Disposition.HANDLED);
    assertThat(Disposition.custom("bounce").capability()).isEqualTo("disposition:bounce");
    assertThat(Disposition.custom("bounce").isCore()).isFalse();
    assertThatThrownBy(() -> Disposition.custom("no spaces")).hasMessageStartingWith("MBX-1007");
  }

  private static final class UpstreamFailure extends RuntimeException implements Retriable {
    private final int status;

    UpstreamFailure(int status) {
      super("upstream answered " + status);
      this.status = status;
    }

    @Override
    public boolean isRetriable() {
      return status == 503 || status == 504;
    }
  }
}
