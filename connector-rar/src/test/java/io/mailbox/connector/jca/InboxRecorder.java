package io.mailbox.connector.jca;

import io.mailbox.connector.api.MailMessage;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Collects what the test MDB received, so the test can wait for it. */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class InboxRecorder {
  private final LinkedBlockingQueue<MailMessage> received = new LinkedBlockingQueue<>();

  public void record(MailMessage message) {
    received.add(message);
  }

  public int count() {
    return received.size();
  }

  /** The next received message, waiting up to {@code timeout}. */
  public Optional<MailMessage> next(Duration timeout) throws InterruptedException {
    return Optional.ofNullable(received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS));
  }
}
