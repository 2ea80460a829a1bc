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
import io.mailbox.console.metrics.ServerMetrics;
import io.mailbox.ejb.alerts.AlertBreach;
import io.mailbox.ejb.alerts.AlertState;
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
  private final BacklogHistory history;
  private final ServerMetrics metrics;
  private final AlertBanner alertBanner = new AlertBanner();
  private AlertState.Report alerts;
  private final Grid<AddressRow> grid = new Grid<>(AddressRow.class, false);
  private final Span summary = new Span();
  private final com.vaadin.flow.component.textfield.TextField filter =
      new com.vaadin.flow.component.textfield.TextField();
  private List<AddressRow> rows = List.of();
  // Dead-letter addresses, refreshed every DEAD_LETTER_REFRESHES refreshes (it takes a snapshot).
  private java.util.Set<String> deadLetters = java.util.Set.of();
  private int refreshes;
  static final int DEAD_LETTER_REFRESHES = 15;
  private Registration polling;

  @Inject
  public DashboardView(
      MailboxOperations operations, BacklogHistory history, ServerMetrics metrics) {
    this.operations = operations;
    this.history = history;
    this.metrics = metrics;
    this.alerts = metrics.alerts();
    setSizeFull();
    H2 title = new H2("Mailboxes");
    title.getStyle().set("margin", "0");
    filter.setId("address-filter");
    filter.setPlaceholder("Filter: address, provider or state");
    filter.setClearButtonVisible(true);
    filter.setWidth("28rem");
    filter.setValueChangeMode(com.vaadin.flow.data.value.ValueChangeMode.LAZY);
    filter.addValueChangeListener(change -> show());
    add(title, summary, alertBanner, filter, configureGrid());
    summary.setId("summary");
    refresh();
  }

  private Grid<AddressRow> configureGrid() {
    grid.setId("addresses");
    grid.addThemeVariants(GridVariant.LUMO_ROW_STRIPES, GridVariant.LUMO_COMPACT);
    grid.addComponentColumn(this::addressCell)
        .setHeader("Address")
        .setKey("address")
        .setComparator(Comparator.comparing(AddressRow::address))
        .setAutoWidth(true)
        .setFlexGrow(3);
    grid.addColumn(AddressRow::provider)
        .setHeader("Provider")
        .setKey("provider")
        .setWidth("6rem")
        .setFlexGrow(0)
        .setSortable(true);
    grid.addComponentColumn(this::stateBadge)
        .setHeader("State")
        .setKey("state")
        .setSortable(true)
        .setComparator(Comparator.comparing(AddressRow::state));
    grid.addComponentColumn(this::alertsCell)
        .setHeader("Alerts")
        .setKey("alerts")
        .setWidth("8rem")
        .setComparator(Comparator.comparingInt(row -> alerts.at(row.address()).size()));
    grid.addColumn(AddressRow::unread)
        .setHeader("Unread")
        .setKey("unread")
        .setWidth("5.5rem")
        .setFlexGrow(0)
        .setSortable(true);
    grid.addColumn(AddressRow::oldestUnreadText)
        .setHeader("Oldest unread")
        .setKey("oldestUnread")
        .setWidth("8.5rem")
        .setFlexGrow(0)
        .setComparator(Comparator.comparingLong(AddressRow::oldestUnreadMs));
    grid.addColumn(AddressRow::inFlight)
        .setHeader("In flight")
        .setKey("inFlight")
        .setWidth("6rem")
        .setFlexGrow(0)
        .setSortable(true);
    grid.addColumn(row -> AddressRow.countText(row.overdue()))
        .setHeader("Overdue")
        .setKey("overdue")
        .setWidth("6rem")
        .setFlexGrow(0)
        .setComparator(Comparator.comparingLong(AddressRow::overdue));
    grid.addColumn(row -> AddressRow.countText(row.parked()))
        .setHeader("Parked")
        .setKey("parked")
        .setWidth("5.5rem")
        .setFlexGrow(0)
        .setComparator(Comparator.comparingLong(AddressRow::parked));
    grid.addComponentColumn(
            row ->
                new com.vaadin.flow.component.html.Image(
                    Sparkline.dataUri(history.of(row.address())), "backlog trend"))
        .setHeader("Backlog, 2 min")
        .setKey("trend")
        .setAutoWidth(true)
        .setFlexGrow(0);
    grid.addColumn(AddressRow::subscribersText)
        .setHeader("Subscribers")
        .setKey("subscribers")
        .setWidth("7rem")
        .setFlexGrow(0)
        .setComparator(Comparator.comparingLong(AddressRow::subscribers));
    grid.addColumn(row -> row.lastActivityAgo(Instant.now()))
        .setHeader("Last activity")
        .setKey("lastActivity")
        .setComparator(
            Comparator.comparing(
                AddressRow::lastActivity, Comparator.nullsFirst(Comparator.naturalOrder())));
    // A row opens its address: the queued messages, recover, purge.
    grid.addItemClickListener(
        click ->
            getUI()
                .ifPresent(
                    ui ->
                        ui.navigate(
                            io.mailbox.console.address.AddressView.class,
                            com.vaadin.flow.router.QueryParameters.of(
                                "address", click.getItem().address()))));
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
      rows = snapshot.addresses().stream().map(AddressRow::of).toList();
      if (refreshes++ % DEAD_LETTER_REFRESHES == 0) {
        deadLetters = java.util.Set.copyOf(operations.deadLetterAddresses());
      }
      history.record(rows, Instant.now());
      alerts = metrics.alerts();
      alertBanner.show(alerts);
      show();
      summary.setText(SnapshotSummary.describe(snapshot));
      summary.getStyle().remove("color");
    } catch (MailboxException | EJBException e) {
      // The adapter is down or not deployed: say so instead of showing a stale or empty grid.
      summary.setText("The mailbox adapter is not reachable: " + rootMessage(e));
      summary.getStyle().set("color", "var(--lumo-error-text-color)");
    }
  }

  private void show() {
    String wanted = filter.getValue() == null ? "" : filter.getValue().strip().toLowerCase();
    grid.setItems(
        rows.stream()
            .filter(
                row ->
                    wanted.isEmpty()
                        || (row.address() + " " + row.provider() + " " + row.state())
                            .toLowerCase()
                            .contains(wanted))
            .toList());
  }

  /**
   * The state, coloured so that anything but online stands out; attention (overdue leases, parked
   * records, dead letters waiting) marks it too.
   */
  private Span stateBadge(AddressRow row) {
    boolean attention =
        row.needsAttention() || (deadLetters.contains(row.address()) && row.unread() > 0);
    Span badge = new Span(row.state() + (attention ? " ⚠" : ""));
    String color =
        switch (row.state()) {
          case "online" ->
              attention
                  ? "var(--lumo-warning-text-color, #8a6d00)"
                  : "var(--lumo-success-text-color)";
          case "unknown" -> "var(--lumo-secondary-text-color)";
          default -> "var(--lumo-error-text-color)";
        };
    badge.getStyle().set("color", color).set("font-weight", attention ? "600" : "400");
    return badge;
  }

  /** The address, red while it breaches an alert rule. */
  private Span addressCell(AddressRow row) {
    Span address = new Span(row.address());
    if (!alerts.at(row.address()).isEmpty()) {
      address.getStyle().set("color", "var(--lumo-error-text-color)").set("font-weight", "600");
    }
    return address;
  }

  /** The rules the address breaches, by name ("parked, orders-backlog"), red; empty when none. */
  private Span alertsCell(AddressRow row) {
    Span names =
        new Span(
            alerts.at(row.address()).stream()
                .map(AlertBreach::rule)
                .distinct()
                .collect(java.util.stream.Collectors.joining(", ")));
    names.getStyle().set("color", "var(--lumo-error-text-color)");
    return names;
  }

  private static String rootMessage(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return String.valueOf(root.getMessage());
  }
}
