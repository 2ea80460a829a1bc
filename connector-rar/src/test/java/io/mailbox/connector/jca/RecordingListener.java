package io.mailbox.connector.jca;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;

/** The MDB under test: records every message of its address. */
@MessageDriven(
    activationConfig = {
      @ActivationConfigProperty(propertyName = "address", propertyValue = RecordingListener.ADDRESS)
    })
public class RecordingListener implements MailboxListener {
  static final String ADDRESS = "mem:it@test/inbox";

  @EJB private InboxRecorder recorder;

  @Override
  public void onMessage(MailMessage message) {
    recorder.record(message);
  }
}
