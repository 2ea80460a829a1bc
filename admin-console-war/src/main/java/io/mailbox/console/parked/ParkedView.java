package io.mailbox.console.parked;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.combobox.ComboBox;
import com.vaadin.flow.component.confirmdialog.ConfirmDialog;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Pre;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.notification.Notification;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.console.layout.ConsoleLayout;
import io.mailbox.console.layout.ConsoleText;
import io.mailbox.console.security.ConsoleAccessControl;
import io.mailbox.ejb.operations.MailboxOperations;
import jakarta.inject.Inject;
import java.util.List;

/**
 * Parked records: copies given up at the end of the dead-letter chain, kept so nothing is lost
 * silently. Pick an address, inspect a record (headers, a bounded body preview), and — operators
 * only — purge one (where the provider can take one out: not on {@code kafka:}), or all after
 * typing the address to confirm.
 */
@Route(value = "parked", layout = ConsoleLayout.class)
@PageTitle("Parked · Mailbox")
public class ParkedView extends VerticalLayout
    implements com.vaadin.flow.router.BeforeEnterObserver {
  static final int RECORDS_SHOWN = 200;

  private final MailboxOperations operations;
  private final ConsoleAccessControl accessControl;
  private final ComboBox<String> address = new ComboBox<>("Address");
  private final Grid<ParkedRecord> grid = new Grid<>(ParkedRecord.class, false);
  private final Pre details = new Pre();
  private final Span count = new Span();
  private final Button purgeOne = new Button("Purge selected", click -> purgeSelected());

  @Inject
  public ParkedView(MailboxOperations operations, ConsoleAccessControl accessControl) {
    this.operations = operations;
    this.accessControl = accessControl;
    setSizeFull();
    address.setId("parked-address");
    address.setWidth("32rem");
    address.setItems(
        operations.snapshot().addresses().stream()
            .map(AddressStatus::address)
            .map(Object::toString)
            .toList());
    address.setAllowCustomValue(true);
    address.addCustomValueSetListener(custom -> address.setValue(custom.getDetail()));
    address.addValueChangeListener(change -> refresh());
    count.setId("parked-count");
    count.setText("Pick an address to see its parked records.");
    details.setId("parked-details");
    details
        .getStyle()
        .set("white-space", "pre-wrap")
        .set("max-height", "16rem")
        .set("overflow", "auto");

    HorizontalLayout actions = new HorizontalLayout(address, count);
    actions.setAlignItems(Alignment.BASELINE);
    if (accessControl.isOperator()) {
      purgeOne.setId("purge-selected");
      purgeOne.addThemeVariants(ButtonVariant.LUMO_ERROR);
      Button purgeAll = new Button("Purge all…", click -> confirmPurgeAll());
      purgeAll.setId("purge-all");
      purgeAll.addThemeVariants(ButtonVariant.LUMO_ERROR, ButtonVariant.LUMO_TERTIARY);
      actions.add(purgeOne, purgeAll);
    }
    configureGrid();
    add(new H2("Parked records"), actions, grid, details);
  }

  /** {@code parked?address=...} opens that address's records (links, bookmarks). */
  @Override
  public void beforeEnter(com.vaadin.flow.router.BeforeEnterEvent event) {
    ConsoleText.queryParameter(event, "address").ifPresent(address::setValue);
  }

  private void configureGrid() {
    grid.setId("parked-records");
    grid.addThemeVariants(GridVariant.LUMO_ROW_STRIPES, GridVariant.LUMO_COMPACT);
    grid.addColumn(ParkedRecord::messageId).setHeader("Message id").setFlexGrow(2);
    grid.addColumn(ParkedRecord::reason).setHeader("Reason").setSortable(true);
    grid.addColumn(ParkedRecord::source).setHeader("Given up at").setFlexGrow(2);
    grid.addColumn(ParkedRecord::attempts).setHeader("Attempts");
    grid.addColumn(ParkedRecord::error).setHeader("Error").setFlexGrow(3);
    grid.asSingleSelect()
        .addValueChangeListener(
            change ->
                details.setText(change.getValue() == null ? "" : change.getValue().details()));
    grid.setWidthFull();
  }

  private void refresh() {
    details.setText("");
    String selected = address.getValue();
    if (selected == null || selected.isBlank()) {
      grid.setItems(List.of());
      count.setText("Pick an address to see its parked records.");
      return;
    }
    try {
      List<MailMessage> records = operations.parked(selected, RECORDS_SHOWN);
      purgeOne.setVisible(operations.canPurgeOneParked(selected)); // a log purges only all
      grid.setItems(records.stream().map(ParkedRecord::of).toList());
      count.setText(
          records.size() + (records.size() == RECORDS_SHOWN ? "+ records" : " record(s)"));
    } catch (RuntimeException e) {
      grid.setItems(List.of());
      count.setText(ConsoleText.refusal(e));
    }
  }

  private void purgeSelected() {
    ParkedRecord record = grid.asSingleSelect().getValue();
    if (record == null) {
      Notification.show("Select a record first.");
      return;
    }
    accessControl.requireOperator("parked.purge");
    int removed = operations.purgeParked(address.getValue(), record.key());
    Notification.show(removed + " record purged.");
    refresh();
  }

  /** Purging every record of an address is confirmed by typing the address. */
  private void confirmPurgeAll() {
    String target = address.getValue();
    if (target == null || target.isBlank()) {
      Notification.show("Pick an address first.");
      return;
    }
    TextField typed = new TextField("Type the address to confirm");
    typed.setId("purge-confirmation");
    typed.setWidthFull();
    ConfirmDialog dialog = new ConfirmDialog();
    dialog.setHeader("Purge every parked record of " + target + "?");
    dialog.add(typed);
    dialog.setCancelable(true);
    dialog.setConfirmText("Purge all");
    dialog.setConfirmButtonTheme("error primary");
    dialog.addConfirmListener(
        confirm -> {
          if (!ConsoleText.confirms(typed.getValue(), target)) {
            Notification.show("The typed address does not match; nothing was purged.");
            return;
          }
          accessControl.requireOperator("parked.purge-all");
          int removed = operations.purgeParked(target, null);
          Notification.show(removed + " record(s) purged.");
          refresh();
        });
    dialog.open();
  }
}
