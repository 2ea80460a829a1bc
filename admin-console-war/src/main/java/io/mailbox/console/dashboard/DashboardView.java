package io.mailbox.console.dashboard;

import com.vaadin.flow.component.AttachEvent;
import com.vaadin.flow.component.DetachEvent;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.shared.Registration;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.Snapshot;
import io.mailbox.ejb.operations.MailboxOperations;
import jakarta.ejb.EJBException;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/** Every address of every provider, with its state and counts, refreshed every two seconds. */
@Route(value = "", layout = io.mailbox.console.layout.ConsoleLayout.class)
@PageTitle("Dashboard · Mailbox")
public class DashboardView extends VerticalLayout {
  static final int REFRESH_MILLIS = 2000;

  private final MailboxOperations operations;
  private final Grid<AddressRow> grid = new Grid<>(AddressRow.class, false);
  private final Span summary = new Span();
  private Registration polling;

  @Inject
  public DashboardView(MailboxOperations operations) {
    this.operations = operations;
    setSizeFull();
    H2 title = new H2("Mailboxes");
    title.getStyle().set("margin", "0");
    add(title, summary, configureGrid());
    summary.setId("summary");
    refresh();
  }

  private Grid<AddressRow> configureGrid() {
    grid.setId("addresses");
    grid.addThemeVariants(GridVariant.LUMO_ROW_STRIPES, GridVariant.LUMO_COMPACT);
    grid.addColumn(AddressRow::address)
        .setHeader("Address")
        .setKey("address")
        .setSortable(true)
        .setFlexGrow(3);
    grid.addColumn(AddressRow::provider).setHeader("Provider").setKey("provider").setSortable(true);
    grid.addColumn(AddressRow::state).setHeader("State").setKey("state").setSortable(true);
    grid.addColumn(AddressRow::unread).setHeader("Unread").setKey("unread").setSortable(true);
    grid.addColumn(AddressRow::inFlight)
        .setHeader("In flight")
        .setKey("inFlight")
        .setSortable(true);
    grid.addColumn(AddressRow::subscribersText)
        .setHeader("Subscribers")
        .setKey("subscribers")
        .setComparator(Comparator.comparingLong(AddressRow::subscribers));
    grid.addColumn(row -> row.lastActivityAgo(Instant.now()))
        .setHeader("Last activity")
        .setKey("lastActivity")
        .setComparator(
            Comparator.comparing(
                AddressRow::lastActivity, Comparator.nullsFirst(Comparator.naturalOrder())));
    grid.setSizeFull();
    return grid;
  }

  @Override
  protected void onAttach(AttachEvent event) {
    event.getUI().setPollInterval(REFRESH_MILLIS);
    polling = event.getUI().addPollListener(poll -> refresh());
  }

  @Override
  protected void onDetach(DetachEvent event) {
    event.getUI().setPollInterval(-1);
    if (polling != null) {
      polling.remove();
      polling = null;
    }
  }

  private void refresh() {
    try {
      Snapshot snapshot = operations.snapshot();
      List<AddressRow> rows = snapshot.addresses().stream().map(AddressRow::of).toList();
      grid.setItems(rows);
      summary.setText(SnapshotSummary.describe(snapshot));
      summary.getStyle().remove("color");
    } catch (MailboxException | EJBException e) {
      // The adapter is down or not deployed: say so instead of showing a stale or empty grid.
      summary.setText("The mailbox adapter is not reachable: " + rootMessage(e));
      summary.getStyle().set("color", "var(--lumo-error-text-color)");
    }
  }

  private static String rootMessage(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return String.valueOf(root.getMessage());
  }
}
