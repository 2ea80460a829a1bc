package io.mailbox.console.address;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.confirmdialog.ConfirmDialog;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.notification.Notification;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.TextArea;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.console.layout.ConsoleLayout;
import io.mailbox.console.layout.ConsoleText;
import io.mailbox.console.metrics.ServerMetrics;
import io.mailbox.console.security.ConsoleAccessControl;
import io.mailbox.ejb.operations.MailboxOperations;
import io.mailbox.ejb.operations.MessageOperations;
import jakarta.inject.Inject;
import java.util.List;

/**
 * One address ({@code address?address=jdbc:orders@shop/placed}): its numbers, the queued messages
 * (a bounded body preview; a selected one opens in full in a {@link MessagePanel}), and — operators
 * only — recovering expired leases, purging the queue after typing the address, and sending a test
 * message.
 */
@Route(value = "address", layout = ConsoleLayout.class)
@PageTitle("Address · Mailbox")
public class AddressView extends VerticalLayout implements BeforeEnterObserver {
  static final int MESSAGES_SHOWN = 100;

  private final MailboxOperations operations;
  private final ConsoleAccessControl accessControl;
  private final H2 title = new H2();
  private final Span numbers = new Span();
  private final Grid<QueuedMessage> grid = new Grid<>(QueuedMessage.class, false);
  private final MessagePanel panel;
  private final MessageOperations messages;
  private final ServerMetrics metrics;
  private final Span ratesNow = new Span();
  private final com.vaadin.flow.component.html.Image ratesChart =
      new com.vaadin.flow.component.html.Image();
  private final Grid<io.mailbox.connector.api.InFlightCopy> leases =
      new Grid<>(io.mailbox.connector.api.InFlightCopy.class, false);
  private final HorizontalLayout actions = new HorizontalLayout();
  private String address;

  @Inject
  public AddressView(
      MailboxOperations operations,
      MessageOperations messages,
      ServerMetrics metrics,
      ConsoleAccessControl accessControl) {
    this.operations = operations;
    this.metrics = metrics;
    this.accessControl = accessControl;
    this.messages = messages;
    this.panel = new MessagePanel(messages, operations, accessControl, this::refresh);
    setSizeFull();
    numbers.setId("address-numbers");
    grid.setId("queued-messages");
    grid.addThemeVariants(GridVariant.LUMO_ROW_STRIPES, GridVariant.LUMO_COMPACT);
    grid.addColumn(QueuedMessage::id).setHeader("Message id").setFlexGrow(2);
    grid.addColumn(QueuedMessage::sentAt).setHeader("Sent").setAutoWidth(true);
    grid.addColumn(QueuedMessage::round).setHeader("Round");
    grid.addColumn(QueuedMessage::preview).setHeader("Body").setFlexGrow(4);
    grid.asSingleSelect()
        .addValueChangeListener(
            change -> {
              if (change.getValue() == null) {
                panel.setVisible(false);
              } else {
                panel.show(address, change.getValue().key());
              }
            });
    grid.setWidthFull();
    // Room for a few rows above an opened message, which takes the rest of the page.
    grid.setMinHeight("12rem");
    leases.setId("in-flight");
    leases.addThemeVariants(GridVariant.LUMO_ROW_STRIPES, GridVariant.LUMO_COMPACT);
    leases
        .addColumn(io.mailbox.connector.api.InFlightCopy::messageId)
        .setHeader("In flight: message id")
        .setFlexGrow(2);
    leases.addColumn(io.mailbox.connector.api.InFlightCopy::leaseId).setHeader("Lease");
    leases
        .addColumn(c -> c.handedOutAt() == null ? "" : c.handedOutAt().toString())
        .setHeader("Handed out");
    leases
        .addColumn(
            c ->
                c.expiresAt() == null
                    ? "never"
                    : c.expiresAt() + (c.isOverdueAt(java.time.Instant.now()) ? "  OVERDUE" : ""))
        .setHeader("Lease ends");
    leases.setAllRowsVisible(true);
    leases.setWidthFull();
    ratesNow.setId("rates-now");
    ratesChart.setId("rates-chart");
    ratesChart.setAlt("posted and delivered per second, last 10 minutes");
    add(title, numbers, ratesNow, ratesChart, actions, grid, panel, leases);
  }

  private com.vaadin.flow.shared.Registration polling;

  /**
   * The rates follow the server's 5 s readings; the rest of the view stays as the operator left it.
   */
  @Override
  protected void onAttach(com.vaadin.flow.component.AttachEvent event) {
    event.getUI().setPollInterval(5000);
    polling = event.getUI().addPollListener(poll -> showRates());
  }

  @Override
  protected void onDetach(com.vaadin.flow.component.DetachEvent event) {
    event.getUI().setPollInterval(-1);
    if (polling != null) {
      polling.remove();
      polling = null;
    }
  }

  @Override
  public void beforeEnter(BeforeEnterEvent event) {
    address = ConsoleText.queryParameter(event, "address").orElse(null);
    actions.removeAll();
    if (address == null) {
      title.setText("No address chosen");
      numbers.setText("Open an address from the Mailboxes view.");
      return;
    }
    title.setText(address);
    if (accessControl.isOperator()) {
      Button recover = new Button("Recover expired leases", click -> recover());
      recover.setId("recover");
      actions.add(recover);
      if (canPurge()) {
        Button purge = new Button("Purge queue…", click -> confirmPurge());
        purge.setId("purge");
        purge.addThemeVariants(ButtonVariant.LUMO_ERROR);
        actions.add(purge);
      }
      Button test = new Button("Send test message…", click -> composeTestMessage());
      test.setId("send-test");
      actions.add(test);
    }
    refresh();
  }

  private void refresh() {
    panel.setVisible(false);
    showRates();
    try {
      AddressStatus status = operations.status(address);
      numbers.setText(QueuedMessage.numbers(status));
      try {
        leases.setItems(operations.inFlight(address, MESSAGES_SHOWN));
      } catch (RuntimeException cannotList) {
        leases.setItems(List.of());
      }
      try {
        grid.setItems(
            operations.peek(address, MESSAGES_SHOWN).stream().map(QueuedMessage::of).toList());
      } catch (RuntimeException cannotPeek) {
        grid.setItems(List.of());
        numbers.setText(numbers.getText() + " · " + ConsoleText.refusal(cannotPeek));
      }
    } catch (RuntimeException e) {
      numbers.setText(ConsoleText.refusal(e));
      grid.setItems(List.of());
    }
  }

  private void showRates() {
    if (address == null) {
      return;
    }
    try {
      List<io.mailbox.console.metrics.RateHistory.Point> points = metrics.rates(address);
      ratesNow.setText(RateChart.now(points));
      ratesChart.setSrc(
          RateChart.dataUri(
              points, java.time.Instant.now(), io.mailbox.console.metrics.RateHistory.WINDOW));
    } catch (RuntimeException malformed) {
      ratesNow.setText("");
    }
  }

  /** Purge is offered only where the provider can do it (nothing offered that would fail). */
  private boolean canPurge() {
    try {
      return messages.can(address, io.mailbox.connector.api.Capabilities.PURGE);
    } catch (RuntimeException malformed) {
      return false;
    }
  }

  private void recover() {
    accessControl.requireOperator("address.recover");
    long reclaimed = operations.recover(address).reclaimed();
    Notification.show(reclaimed + " expired lease(s) returned to the queue.");
    refresh();
  }

  private void composeTestMessage() {
    TextArea body = new TextArea("Body");
    body.setId("test-message-body");
    body.setWidthFull();
    body.setMaxLength(MailboxOperations.MAX_TEST_BODY);
    body.setValue("{\"test\": true, \"sentAt\": \"" + java.time.Instant.now() + "\"}");
    ConfirmDialog dialog = new ConfirmDialog();
    dialog.setHeader("Send a test message to " + address);
    dialog.setText("It is posted at once, marked with your name, and audited.");
    dialog.add(body);
    Button send =
        new Button(
            "Send",
            click -> {
              dialog.close();
              accessControl.requireOperator("address.send-test");
              try {
                String id = operations.sendTestMessage(address, body.getValue());
                Notification.show("Test message " + id + " sent.");
              } catch (RuntimeException e) {
                Notification.show(ConsoleText.refusal(e));
              }
              refresh();
            });
    send.setId("send-test-confirm");
    send.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    dialog.setConfirmButton(send);
    dialog.setCancelable(true);
    dialog.open();
  }

  private void confirmPurge() {
    TextField typed = new TextField("Type the address to confirm");
    typed.setId("purge-confirmation");
    typed.setWidthFull();
    ConfirmDialog dialog = new ConfirmDialog();
    dialog.setHeader("Remove every queued message of " + address + "?");
    dialog.setText("Messages in flight are left alone. This cannot be undone.");
    dialog.add(typed);
    dialog.setCancelable(true);
    dialog.setConfirmText("Purge");
    dialog.setConfirmButtonTheme("error primary");
    dialog.addConfirmListener(
        confirm -> {
          if (!ConsoleText.confirms(typed.getValue(), address)) {
            Notification.show("The typed address does not match; nothing was purged.");
            return;
          }
          accessControl.requireOperator("address.purge");
          Notification.show(operations.purge(address) + " message(s) removed.");
          refresh();
        });
    dialog.open();
  }
}
