package io.mailbox.console.audit;

import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.data.value.ValueChangeMode;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import io.mailbox.console.layout.ConsoleLayout;
import io.mailbox.ejb.audit.AuditEntry;
import io.mailbox.ejb.audit.AuditLog;
import jakarta.inject.Inject;
import java.util.List;

/** Every change and sign-in, newest first, filterable by any of its words. Read only. */
@Route(value = "audit", layout = ConsoleLayout.class)
@PageTitle("Audit · Mailbox")
public class AuditView extends VerticalLayout {
  static final int ENTRIES_SHOWN = 500;

  private final Grid<AuditEntry> grid = new Grid<>(AuditEntry.class, false);
  private final List<AuditEntry> entries;

  @Inject
  public AuditView(AuditLog audit) {
    setSizeFull();
    entries = audit.recent(ENTRIES_SHOWN);
    TextField filter = new TextField();
    filter.setId("audit-filter");
    filter.setPlaceholder("Filter: who, what, on what, result");
    filter.setClearButtonVisible(true);
    filter.setValueChangeMode(ValueChangeMode.LAZY);
    filter.addValueChangeListener(change -> show(change.getValue()));
    filter.setWidth("28rem");

    grid.setId("audit-entries");
    grid.addThemeVariants(GridVariant.LUMO_ROW_STRIPES, GridVariant.LUMO_COMPACT);
    grid.addColumn(e -> e.occurredAt().toString().replace('T', ' ').replaceAll("\\.\\d+Z$", "Z"))
        .setHeader("When (UTC)")
        .setAutoWidth(true)
        .setFlexGrow(0)
        .setSortable(true)
        .setComparator(AuditEntry::occurredAt);
    grid.addColumn(AuditEntry::actor).setHeader("Who").setSortable(true);
    grid.addColumn(AuditEntry::action).setHeader("What").setSortable(true);
    grid.addColumn(e -> e.target() == null ? "" : e.target()).setHeader("On").setFlexGrow(3);
    grid.addColumn(AuditEntry::affected).setHeader("How many");
    grid.addColumn(e -> AuditFilter.resultLabel(e.result())).setHeader("Result").setSortable(true);
    grid.setSizeFull();
    add(new H2("Audit"), filter, grid);
    show("");
  }

  private void show(String filter) {
    grid.setItems(entries.stream().filter(e -> AuditFilter.matches(e, filter)).toList());
  }
}
