package io.mailbox.examples.orders.billing;

import io.mailbox.examples.orders.OrderBook;
import io.mailbox.messaging.IncomingMailboxMessage;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.Json;
import java.io.StringReader;
import java.util.concurrent.CompletionStage;
import java.util.logging.Logger;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/** The sink: records each invoice, then acknowledges it. */
@ApplicationScoped
public class InvoiceLedger {
  private static final Logger LOG = Logger.getLogger(InvoiceLedger.class.getName());

  @EJB OrderBook book;

  @Incoming("invoices-in")
  public CompletionStage<Void> record(Message<String> invoice) {
    String orderId;
    try (var reader = Json.createReader(new StringReader(invoice.getPayload()))) {
      orderId = reader.readObject().getString("orderId");
    }
    book.invoiced(orderId);
    int round = IncomingMailboxMessage.of(invoice).map(IncomingMailboxMessage::round).orElse(1);
    LOG.info(() -> "Invoiced order " + orderId + " (round " + round + ")");
    return invoice.ack();
  }
}
