package io.mailbox.console.address;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.confirmdialog.ConfirmDialog;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.H4;
import com.vaadin.flow.component.html.Pre;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.notification.Notification;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.TextField;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.console.deadletters.DeadLetter;
import io.mailbox.console.layout.ConsoleText;
import io.mailbox.console.security.ConsoleAccessControl;
import io.mailbox.ejb.operations.MailboxOperations;
import io.mailbox.ejb.operations.MessageOperations;
import java.util.List;
import java.util.Map;

/**
 * One queued message in full: every header, the body (JSON indented), a button that copies the
 * body, and — for operators, where the provider can remove a queued copy — move to another address
 * and delete, and for a dead letter replay to where it was given up; each confirmed and audited.
 */
final class MessagePanel extends VerticalLayout {
  private final MessageOperations messages;
  private final MailboxOperations operations;
  private final ConsoleAccessControl accessControl;
  private final Runnable changed;
  private final H4 title = new H4();
  private final Grid<Map.Entry<String, String>> headers = new Grid<>();
  private final Span bodyKind = new Span();
  private final Pre body = new Pre();
  private final HorizontalLayout actions = new HorizontalLayout();

  /**
   * @param changed run after a move or delete, to refresh the address around the panel
   */
  MessagePanel(
      MessageOperations messages,
      MailboxOperations operations,
      ConsoleAccessControl accessControl,
      Runnable changed) {
    this.messages = messages;
    this.operations = operations;
    this.accessControl = accessControl;
    this.changed = changed;
    setId("message-panel");
    setPadding(false);
    title.setId("message-title");
    headers.setId("message-headers");
    headers.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
    headers.addColumn(Map.Entry::getKey).setHeader("Header").setAutoWidth(true).setFlexGrow(0);
    headers.addColumn(Map.Entry::getValue).setHeader("Value").setFlexGrow(1);
    headers.setAllRowsVisible(true);
    headers.setWidthFull();
    body.setId("message-body");
    body.getStyle()
        .set("white-space", "pre-wrap")
        .set("max-height", "24rem")
        .set("overflow", "auto")
        .set("background", "var(--lumo-contrast-5pct)")
        .set("padding", "0.5rem");
    body.setWidthFull();
    add(title, actions, headers, bodyKind, body);
    setVisible(false);
  }

  /** Shows the message with copy key {@code key} of {@code address}, read now in full. */
  void show(String address, String key) {
    actions.removeAll();
    MailMessage message;
    try {
      message = messages.find(address, key).orElse(null);
    } catch (RuntimeException e) {
      Notification.show(ConsoleText.refusal(e));
      setVisible(false);
      return;
    }
    if (message == null) {
      Notification.show("The message is no longer queued (delivered, moved or purged).");
      setVisible(false);
      return;
    }
    title.setText("Message " + message.id());
    headers.setItems(List.copyOf(message.headers().entrySet()));
    boolean json = BodyText.prettyJson(message.body()).isPresent();
    bodyKind.setText(
        "Body ("
            + (json ? "JSON, indented" : "text")
            + ", "
            + message.body().length()
            + " characters)");
    body.setText(BodyText.shown(message.body()));
    Button copy =
        new Button(
            "Copy body",
            click -> {
              body.getElement().executeJs("navigator.clipboard.writeText($0)", message.body());
              Notification.show("Body copied.");
            });
    copy.setId("copy-body");
    actions.add(copy);
    if (accessControl.isOperator()
        && messages.can(address, io.mailbox.connector.api.Capabilities.REMOVE)) {
      Button move = new Button("Move…", click -> confirmMove(address, key));
      move.setId("move-message");
      Button delete = new Button("Delete…", click -> confirmDelete(address, key));
      delete.setId("delete-message");
      delete.addThemeVariants(ButtonVariant.LUMO_ERROR);
      actions.add(move, delete);
      if (message.header(SystemHeaders.DEAD_LETTER_REASON).isPresent()) {
        Button replay = new Button("Replay…", click -> confirmReplay(address, key, message));
        replay.setId("replay-message");
        replay.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
        actions.addComponentAsFirst(replay);
      }
    }
    setVisible(true);
  }

  /** A dead letter goes back to where it was given up, marked as a replay, then leaves here. */
  private void confirmReplay(String address, String key, MailMessage record) {
    String origin = record.header(SystemHeaders.DEAD_LETTER_TOPIC).orElse("its source");
    ConfirmDialog dialog = new ConfirmDialog();
    dialog.setHeader("Replay this dead letter?");
    dialog.setText(
        "It is posted back to "
            + origin
            + " (marked as a replay), then removed from "
            + address
            + ". Audited.");
    dialog.setCancelable(true);
    Button confirm =
        new Button(
            "Replay",
            click -> {
              dialog.close();
              accessControl.requireOperator("deadletter.replay");
              try {
                MailboxOperations.ReplayResult result =
                    operations.replay(address, List.of(key), 50, done -> {});
                Notification.show(DeadLetter.replayed(result));
              } catch (RuntimeException e) {
                Notification.show(ConsoleText.refusal(e));
              }
              setVisible(false);
              changed.run();
            });
    confirm.setId("replay-confirm");
    confirm.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    dialog.setConfirmButton(confirm);
    dialog.open();
  }

  private void confirmMove(String address, String key) {
    TextField target = new TextField("Target address");
    target.setId("move-target");
    target.setWidthFull();
    ConfirmDialog dialog = new ConfirmDialog();
    dialog.setHeader("Move this message to another address?");
    dialog.setText(
        "A copy is posted to the target (marked with where it came from and your name), then this"
            + " one is removed. Audited.");
    dialog.add(target);
    dialog.setCancelable(true);
    Button confirm =
        new Button(
            "Move",
            click -> {
              dialog.close();
              accessControl.requireOperator("message.move");
              try {
                MessageOperations.MoveResult moved = messages.move(address, key, target.getValue());
                Notification.show(
                    !moved.found()
                        ? "The message is no longer queued; nothing was moved."
                        : moved.originalRemoved()
                            ? "Moved to " + target.getValue() + "."
                            : "Copied to "
                                + target.getValue()
                                + ", but the original was taken meanwhile (delivered twice).");
              } catch (RuntimeException e) {
                Notification.show(ConsoleText.refusal(e));
              }
              setVisible(false);
              changed.run();
            });
    confirm.setId("move-confirm");
    confirm.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    dialog.setConfirmButton(confirm);
    dialog.open();
  }

  private void confirmDelete(String address, String key) {
    ConfirmDialog dialog = new ConfirmDialog();
    dialog.setHeader("Delete this message?");
    dialog.setText(
        "It is removed from " + address + " and never delivered. Audited; cannot be undone.");
    dialog.setCancelable(true);
    Button confirm =
        new Button(
            "Delete",
            click -> {
              dialog.close();
              accessControl.requireOperator("message.delete");
              try {
                int removed = messages.delete(address, key);
                Notification.show(
                    removed > 0 ? "Message deleted." : "The message is no longer queued.");
              } catch (RuntimeException e) {
                Notification.show(ConsoleText.refusal(e));
              }
              setVisible(false);
              changed.run();
            });
    confirm.setId("delete-confirm");
    confirm.addThemeVariants(ButtonVariant.LUMO_ERROR, ButtonVariant.LUMO_PRIMARY);
    dialog.setConfirmButton(confirm);
    dialog.open();
  }
}
