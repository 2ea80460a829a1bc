package io.mailbox.connector.jca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mailbox.connector.api.MailMessage;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import java.time.Duration;
import java.util.Optional;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The adapter on a real Payara Micro: the rar is deployed by the post-boot file (as in production),
 * this war holds an MDB and a poster EJB. Runs inside the server.
 */
@ExtendWith(ArquillianExtension.class)
class TransactionalDeliveryIT {
  private static final Duration ARRIVAL = Duration.ofSeconds(10);

  @Deployment
  static WebArchive deployment() {
    return ShrinkWrap.create(WebArchive.class, "adapter-it.war")
        .addClasses(
            InboxRecorder.class,
            RecordingListener.class,
            ManualAckListener.class,
            TransactionalPoster.class);
  }

  @EJB private TransactionalPoster poster;
  @EJB private InboxRecorder recorder;

  @Test
  void committedPostReachesTheMdbOnlyAfterCommit() throws Exception {
    drain();
    MailMessage message =
        MailMessage.to(RecordingListener.ADDRESS).id("committed-1").body("{\"n\":1}").build();

    int seenBeforeCommit = poster.postAndLinger(message, 700);

    assertEquals(0, seenBeforeCommit, "nothing may arrive while the transaction is open");
    Optional<MailMessage> received = recorder.next(ARRIVAL);
    assertTrue(received.isPresent(), "the committed message arrives");
    assertEquals("committed-1", received.get().id());
    assertEquals("{\"n\":1}", received.get().body());
    assertTrue(received.get().sendId().isPresent(), "stamped at the send boundary");
  }

  @Test
  void rolledBackPostDeliversNothing() throws Exception {
    drain();
    poster.postAndRollBack(
        MailMessage.to(RecordingListener.ADDRESS).id("rolled-back").body("{}").build());
    // A marker posted afterwards proves delivery is running; the rolled-back one must not precede
    // it.
    poster.postWithoutTransaction(
        MailMessage.to(RecordingListener.ADDRESS).id("marker").body("{}").build());

    Optional<MailMessage> first = recorder.next(ARRIVAL);
    assertTrue(first.isPresent(), "the marker arrives");
    assertEquals("marker", first.get().id(), "the rolled-back message must never arrive");
    assertTrue(recorder.next(Duration.ofSeconds(1)).isEmpty(), "nothing after the marker");
  }

  @Test
  void postToAnUnknownSchemeIsRefusedWithAStableCode() {
    MailMessage toUnknownScheme = MailMessage.to("nowhere:x@y/z").body("{}").build();
    EJBException refused =
        assertThrows(EJBException.class, () -> poster.postWithoutTransaction(toUnknownScheme));
    assertTrue(rootMessage(refused).startsWith("MBX-1003"), rootMessage(refused));
  }

  @Test
  void aManualAckMdbSettlesItsDeliveriesAndAGivenBackOneReturnsInTheNextRound() throws Exception {
    drain();
    poster.postWithoutTransaction(
        MailMessage.to(ManualAckListener.ADDRESS).id("m-once").body("once").build());
    poster.postWithoutTransaction(
        MailMessage.to(ManualAckListener.ADDRESS).id("m-again").body("again").build());

    Optional<MailMessage> first = recorder.next(ARRIVAL);
    Optional<MailMessage> second = recorder.next(ARRIVAL);

    assertTrue(first.isPresent() && second.isPresent(), "both handled");
    MailMessage again = first.get().id().equals("m-again") ? first.get() : second.get();
    assertEquals(
        "2", again.header("mbx-round").orElse(""), "handed out again after the MDB gave it back");
    assertEquals(
        0, poster.status(ManualAckListener.ADDRESS).inFlightCount(), "nothing left under lease");
    assertEquals(0, poster.status(ManualAckListener.ADDRESS).unreadCount());
  }

  @Test
  void theDurableJdbcProviderOnTheDefaultDatasourceTakesCommittedPostsOnly() throws Exception {
    String address = "jdbc:it@test/durable";
    long before = poster.status(address).unreadCount();

    poster.postAndLinger(MailMessage.to(address).id("kept").body("{}").build(), 10);
    poster.postAndRollBack(MailMessage.to(address).id("dropped").body("{}").build());
    poster.postWithoutTransaction(MailMessage.to(address).id("direct").body("{}").build());

    assertEquals(
        before + 2, poster.status(address).unreadCount(), "the committed and the direct post");
  }

  @Test
  void closedHandleRefusesWithAStableCode() {
    String refusal = poster.useClosedHandle();
    assertTrue(refusal.startsWith("MBX-2002"), refusal);
  }

  private void drain() throws InterruptedException {
    while (recorder.next(Duration.ofMillis(200)).isPresent()) {
      // left over from another test
    }
  }

  private static String rootMessage(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root.getMessage();
  }
}
