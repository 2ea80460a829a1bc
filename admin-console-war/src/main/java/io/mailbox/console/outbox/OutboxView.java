package io.mailbox.console.outbox;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.notification.Notification;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.select.Select;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import io.mailbox.console.layout.ConsoleLayout;
import io.mailbox.console.security.ConsoleAccessControl;
import io.mailbox.ejb.operations.OutboxOperations;
import io.mailbox.ejb.outbox.OutboxRow;
import io.mailbox.ejb.outbox.OutboxStatus;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;

/**
 * The transactional outbox: counts, rows of a status, and — for operators — releasing failed rows
 * (retry: back to pending with zero attempts; discard: settled without publishing). Viewers see the
 * same page without the buttons; the release itself checks the role again on the server.
 */
@Route(value = "outbox", layout = ConsoleLayout.class)
@PageTitle("Outbox · Mailbox")
public class OutboxView extends VerticalLayout {
  static final int ROWS_SHOWN = 200;

  private final OutboxOperations operations;
  private final ConsoleAccessControl accessControl;
  private final Span summary = new Span();
  private final Select<OutboxStatus> status = new Select<>();
  private final Grid<OutboxRow> grid = new Grid<>(OutboxRow.class, false);

  @Inject
  public OutboxView(OutboxOperations operations, ConsoleAccessControl accessControl) {
    this.operations = operations;
    this.accessControl = accessControl;
    setSizeFull();
    summary.setId("outbox-summary");
    status.setId("outbox-status");
    status.setLabel("Rows");
    status.setWidth("22rem");
    status.setItems(OutboxStatus.FAILED, OutboxStatus.PENDING, OutboxStatus.SENT);
    status.setItemLabelGenerator(s -> OutboxRowText.statusLabel(s));
    status.setValue(OutboxStatus.FAILED);
    status.addValueChangeListener(change -> refresh());

    HorizontalLayout actions = new HorizontalLayout(status);
    actions.setAlignItems(Alignment.BASELINE);
    if (accessControl.isOperator()) {
      Button retry = new Button("Release: retry", click -> release(true));
      retry.setId("release-retry");
      retry.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
      Button discard = new Button("Release: discard", click -> release(false));
      discard.setId("release-discard");
      discard.addThemeVariants(ButtonVariant.LUMO_ERROR);
      actions.add(retry, discard);
    }
    add(new H2("Outbox"), summary, actions, configureGrid());
    refresh();
  }

  private Grid<OutboxRow> configureGrid() {
    grid.setId("outbox-rows");
    grid.addThemeVariants(GridVariant.LUMO_ROW_STRIPES, GridVariant.LUMO_COMPACT);
    grid.setSelectionMode(
        accessControl.isOperator() ? Grid.SelectionMode.MULTI : Grid.SelectionMode.NONE);
    grid.addColumn(OutboxRow::id).setHeader("Row / event id").setFlexGrow(2);
    grid.addColumn(OutboxRow::topic).setHeader("Topic").setSortable(true);
    grid.addColumn(row -> row.orderingKey() == null ? "" : row.orderingKey())
        .setHeader("Ordering key")
        .setSortable(true);
    grid.addColumn(OutboxRow::attempts).setHeader("Attempts").setSortable(true);
    grid.addColumn(row -> OutboxRowText.age(row, Instant.now())).setHeader("Age");
    grid.addColumn(row -> OutboxRowText.error(row)).setHeader("Last error").setFlexGrow(3);
    if (accessControl.isOperator()) {
      // A click on a row selects (or unselects) it, not only its check box.
      grid.addItemClickListener(
          click -> {
            if (grid.getSelectedItems().contains(click.getItem())) {
              grid.deselect(click.getItem());
            } else {
              grid.select(click.getItem());
            }
          });
    }
    grid.setSizeFull();
    return grid;
  }

  private void release(boolean retry) {
    List<String> ids = grid.getSelectedItems().stream().map(OutboxRow::id).toList();
    if (ids.isEmpty()) {
      Notification.show("Select the rows to release first.");
      return;
    }
    accessControl.requireOperator(retry ? "outbox.release-retry" : "outbox.release-discard");
    int released = operations.releaseOutbox(ids, retry);
    Notification.show(OutboxRowText.released(released, ids.size(), retry));
    refresh();
  }

  private void refresh() {
    summary.setText(OutboxRowText.summary(operations.summary()));
    grid.setItems(operations.rows(status.getValue(), ROWS_SHOWN));
  }
}
