package io.mailbox.console.inbox;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.notification.Notification;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import io.mailbox.console.layout.ConsoleLayout;
import io.mailbox.console.security.ConsoleAccessControl;
import io.mailbox.ejb.inbox.InboxRow;
import io.mailbox.ejb.operations.OutboxOperations;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;

/**
 * Parked inbox deliveries: events a consumer could not process within its attempts. Operators
 * release them — retry re-publishes the stored envelope (the consumer's inbox skips whatever it
 * already processed), discard keeps it skipped for good.
 */
@Route(value = "inbox", layout = ConsoleLayout.class)
@PageTitle("Inbox · Mailbox")
public class InboxView extends VerticalLayout {
  static final int ROWS_SHOWN = 200;

  private final OutboxOperations operations;
  private final ConsoleAccessControl accessControl;
  private final Grid<InboxRow> grid = new Grid<>(InboxRow.class, false);
  private final Paragraph count = new Paragraph();

  @Inject
  public InboxView(OutboxOperations operations, ConsoleAccessControl accessControl) {
    this.operations = operations;
    this.accessControl = accessControl;
    setSizeFull();
    count.setId("inbox-count");
    HorizontalLayout actions = new HorizontalLayout();
    if (accessControl.isOperator()) {
      Button retry = new Button("Release: re-publish", click -> release(true));
      retry.setId("inbox-release-retry");
      retry.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
      Button discard = new Button("Release: discard", click -> release(false));
      discard.setId("inbox-release-discard");
      discard.addThemeVariants(ButtonVariant.LUMO_ERROR);
      actions.add(retry, discard);
    }
    grid.setId("inbox-parked");
    grid.addThemeVariants(GridVariant.LUMO_ROW_STRIPES, GridVariant.LUMO_COMPACT);
    grid.setSelectionMode(
        accessControl.isOperator() ? Grid.SelectionMode.MULTI : Grid.SelectionMode.NONE);
    grid.addColumn(InboxRow::consumer).setHeader("Consumer").setSortable(true);
    grid.addColumn(InboxRow::topic).setHeader("Topic").setSortable(true);
    grid.addColumn(InboxRow::envelopeId).setHeader("Event id").setFlexGrow(2);
    grid.addColumn(InboxRow::attempts).setHeader("Attempts");
    grid.addColumn(row -> Instant.ofEpochMilli(row.updatedAt()).toString()).setHeader("Parked at");
    grid.addColumn(row -> row.lastError() == null ? "" : row.lastError())
        .setHeader("Last error")
        .setFlexGrow(3);
    grid.setSizeFull();
    add(new H2("Inbox: parked deliveries"), count, actions, grid);
    refresh();
  }

  private void release(boolean retry) {
    List<InboxRow> selected = List.copyOf(grid.getSelectedItems());
    if (selected.isEmpty()) {
      Notification.show("Select the deliveries to release first.");
      return;
    }
    accessControl.requireOperator(retry ? "inbox.release-retry" : "inbox.release-discard");
    int released = operations.releaseInbox(selected, retry);
    Notification.show(released + " of " + selected.size() + " released.");
    refresh();
  }

  private void refresh() {
    List<InboxRow> rows = operations.parkedInbox(ROWS_SHOWN);
    grid.setItems(rows);
    count.setText(
        rows.isEmpty()
            ? "Nothing parked: every consumer processed what it received."
            : rows.size() + " parked delivery(ies).");
  }
}
