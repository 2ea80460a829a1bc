package io.mailbox.root;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class RootAnswerTest {
  private static final Set<String> APPS = RootAnswer.applications(" console,\n orders-app ");

  @Test
  void theListNamesEachContextRootOnce() {
    assertThat(APPS).containsExactlyInAnyOrder("console", "orders-app");
    assertThat(RootAnswer.applications(null)).isEmpty();
  }

  @Test
  void aRequestForAnApplicationThatIsNotDeployedIsToldToComeBack() {
    RootAnswer answer = RootAnswer.forPath("/orders-app/api/orders", APPS, false);
    assertThat(answer.status()).isEqualTo(503);
    assertThat(answer.retryAfterSeconds()).isEqualTo(RootAnswer.RETRY_AFTER_SECONDS);
    assertThat(answer.body()).contains("\"code\":\"MBX-5003\"");
    assertThat(RootAnswer.forPath("/console", APPS, false).status()).isEqualTo(503);
  }

  @Test
  void anUnknownPathIsNotFoundWithoutEchoingIt() {
    RootAnswer answer = RootAnswer.forPath("/<script>alert(1)</script>", APPS, false);
    assertThat(answer.status()).isEqualTo(404);
    assertThat(answer.retryAfterSeconds()).isZero();
    assertThat(answer.body()).contains("MBX-4004").doesNotContain("script");
    assertThat(RootAnswer.forPath("/orders-app-old/x", APPS, false).status()).isEqualTo(404);
    assertThat(RootAnswer.forPath("/", APPS, false).status()).isEqualTo(404);
    assertThat(RootAnswer.forPath(null, APPS, false).status()).isEqualTo(404);
  }

  @Test
  void onceTheServerShutsDownEveryRequestIsToldToComeBack() {
    assertThat(RootAnswer.forPath("/anything", APPS, true).status()).isEqualTo(503);
  }
}
