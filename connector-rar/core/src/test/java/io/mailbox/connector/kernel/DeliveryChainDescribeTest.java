package io.mailbox.connector.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ejb.EJBException;
import org.junit.jupiter.api.Test;

/** What a dead-letter record and the log say about a failure. */
class DeliveryChainDescribeTest {
  @Test
  void containerWrappersAreLookedThroughToTheApplicationsReason() {
    Exception mdbFailure =
        new EJBException(
            "message-driven bean method ... system exception",
            new IllegalStateException("no courier available for order 42"));

    assertThat(DeliveryChain.describe(mdbFailure))
        .isEqualTo("java.lang.IllegalStateException: no courier available for order 42");
  }

  @Test
  void aMeaningfulChainIsKeptAtItsTopAndLongTextsAreBounded() {
    RuntimeException failure =
        new IllegalArgumentException(
            "bad payload " + "x".repeat(400), new RuntimeException("inner"));

    assertThat(DeliveryChain.describe(failure))
        .startsWith("java.lang.IllegalArgumentException: bad payload")
        .hasSize(300)
        .endsWith("...");
  }
}
