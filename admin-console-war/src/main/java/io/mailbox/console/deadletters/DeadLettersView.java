package io.mailbox.console.deadletters;

import com.vaadin.flow.component.UI;
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
import com.vaadin.flow.component.progressbar.ProgressBar;
import com.vaadin.flow.component.textfield.IntegerField;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.data.value.ValueChangeMode;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.console.api.DeadLetterFilter;
import io.mailbox.console.layout.ConsoleLayout;
import io.mailbox.console.layout.ConsoleText;
import io.mailbox.console.security.ConsoleAccessControl;
import io.mailbox.ejb.operations.MailboxOperations;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import java.util.List;

/**
 * Dead letters: pick a dead-letter address, filter by reason and text, inspect a record, and —
 * operators only — replay the selected records or all that match back to where they were given up,
 * at a limited rate with a progress bar. A replayed message that dies again comes back here with
 * its replay count, so a loop is visible.
 */
@Route(value = "dead-letters", layout = ConsoleLayout.class)
@PageTitle("Dead letters · Mailbox")
public class DeadLettersView extends VerticalLayout
    implements com.vaadin.flow.router.BeforeEnterObserver {
  static final int RECORDS_SHOWN = 1000;

  private final MailboxOperations operations;
  private final ConsoleAccessControl accessControl;
  private final ComboBox<String> address = new ComboBox<>("Dead-letter address");
  private final ComboBox<String> reason = new ComboBox<>("Reason");
  private final TextField text = new TextField("Error, source or id contains");
  private final IntegerField rate = new IntegerField("Replays per second");
  private final Grid<DeadLetter> grid = new Grid<>(DeadLetter.class, false);
  private final Span count = new Span();
  private final Pre details = new Pre();
  private final ProgressBar progress = new ProgressBar();
  private final Button replaySelected = new Button("Replay selected");
  private final Button replayMatching = new Button("Replay all matching…");
  private final Span replayNote = new Span();
  private List<MailMessage> records = List.of();

  @Resource(lookup = "java:comp/DefaultManagedExecutorService")
  ManagedExecutorService executor;

  @Inject
  public DeadLettersView(MailboxOperations operations, ConsoleAccessControl accessControl) {
    this.operations = operations;
    this.accessControl = accessControl;
    setSizeFull();
    address.setId("dead-letter-address");
    address.setWidth("30rem");
    address.setItems(operations.deadLetterAddresses());
    address.addValueChangeListener(change -> load());
    reason.setId("dead-letter-reason");
    reason.setClearButtonVisible(true);
    reason.setItems(DeadLetter.REASONS);
    reason.addValueChangeListener(change -> show());
    text.setId("dead-letter-text");
    text.setClearButtonVisible(true);
    text.setValueChangeMode(ValueChangeMode.LAZY);
    text.addValueChangeListener(change -> show());
    count.setId("dead-letter-count");
    details.setId("dead-letter-details");
    details
        .getStyle()
        .set("white-space", "pre-wrap")
        .set("max-height", "14rem")
        .set("overflow", "auto");
    progress.setId("replay-progress");
    progress.setVisible(false);

    HorizontalLayout filters = new HorizontalLayout(address, reason, text);
    filters.setAlignItems(Alignment.BASELINE);
    HorizontalLayout actions = new HorizontalLayout(count);
    actions.setAlignItems(Alignment.BASELINE);
    if (accessControl.isOperator()) {
      rate.setId("replay-rate");
      rate.setValue(50);
      rate.setMin(1);
      rate.setMax(1000);
      rate.setStepButtonsVisible(true);
      replaySelected.addClickListener(click -> replay(selectedKeys()));
      replaySelected.setId("replay-selected");
      replaySelected.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
      replayMatching.addClickListener(click -> confirmReplayMatching());
      replayMatching.setId("replay-matching");
      replayNote.setId("replay-not-offered");
      actions.add(rate, replaySelected, replayMatching, replayNote);
    }
    configureGrid();
    add(new H2("Dead letters"), filters, actions, progress, grid, details);
  }

  /** {@code dead-letters?address=...} opens that dead-letter address (links, bookmarks). */
  @Override
  public void beforeEnter(com.vaadin.flow.router.BeforeEnterEvent event) {
    ConsoleText.queryParameter(event, "address").ifPresent(address::setValue);
  }

  private void configureGrid() {
    grid.setId("dead-letters");
    grid.addThemeVariants(GridVariant.LUMO_ROW_STRIPES, GridVariant.LUMO_COMPACT);
    grid.setSelectionMode(
        accessControl.isOperator() ? Grid.SelectionMode.MULTI : Grid.SelectionMode.SINGLE);
    grid.addColumn(DeadLetter::messageId).setHeader("Message id").setFlexGrow(2);
    grid.addColumn(DeadLetter::reason).setHeader("Reason").setSortable(true);
    grid.addColumn(DeadLetter::source).setHeader("Given up at").setFlexGrow(2);
    grid.addColumn(DeadLetter::replays).setHeader("Replayed").setSortable(true);
    grid.addColumn(DeadLetter::error).setHeader("Error").setFlexGrow(3);
    grid.addItemClickListener(click -> details.setText(click.getItem().details()));
    grid.setWidthFull();
  }

  private void load() {
    String chosen = address.getValue();
    records = List.of();
    if (chosen != null) {
      try {
        offerReplay(operations.canReplay(chosen));
        records = operations.peek(chosen, RECORDS_SHOWN);
      } catch (RuntimeException e) {
        count.setText(ConsoleText.refusal(e));
      }
    }
    show();
  }

  /**
   * A replay posts each record back, then removes it: where the provider cannot remove one record
   * it is not offered (the record would stay and be replayed twice).
   */
  private void offerReplay(boolean can) {
    replaySelected.setEnabled(can);
    replayMatching.setEnabled(can);
    replayNote.setText(
        can
            ? ""
            : "Replay is not offered here: this provider cannot remove one record, so a replayed"
                + " record would stay and could be replayed twice.");
  }

  private List<MailMessage> matching() {
    return records.stream()
        .filter(r -> DeadLetterFilter.matches(r, reason.getValue(), text.getValue()))
        .toList();
  }

  private void show() {
    details.setText("");
    List<DeadLetter> shown = matching().stream().map(DeadLetter::of).toList();
    grid.setItems(shown);
    count.setText(shown.size() + " of " + records.size() + " record(s)");
  }

  private List<String> selectedKeys() {
    return grid.getSelectedItems().stream().map(DeadLetter::key).toList();
  }

  private void confirmReplayMatching() {
    List<String> keys = matching().stream().map(r -> r.sendId().orElse("")).toList();
    ConfirmDialog dialog = new ConfirmDialog();
    dialog.setHeader("Replay " + keys.size() + " record(s)?");
    dialog.setText(
        "Each goes back to the address it was given up at, " + rate.getValue() + " a second.");
    Button confirm =
        new Button(
            "Replay",
            click -> {
              dialog.close();
              replay(keys);
            });
    confirm.setId("replay-confirm");
    confirm.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    dialog.setConfirmButton(confirm);
    dialog.setCancelable(true);
    dialog.open();
  }

  /** Runs the replay off the request thread; the bar follows it while the page polls. */
  private void replay(List<String> keys) {
    if (keys.isEmpty()) {
      Notification.show("Nothing selected.");
      return;
    }
    accessControl.requireOperator("deadletter.replay");
    String from = address.getValue();
    int perSecond = rate.getValue() == null ? 50 : rate.getValue();
    UI ui = UI.getCurrent();
    progress.setValue(0);
    progress.setVisible(true);
    ui.setPollInterval(300);
    executor.submit(
        () -> {
          MailboxOperations.ReplayResult result;
          try {
            result =
                operations.replay(
                    from,
                    keys,
                    perSecond,
                    done -> ui.access(() -> progress.setValue((double) done / keys.size())));
          } catch (RuntimeException e) {
            ui.access(
                () -> {
                  progress.setVisible(false);
                  ui.setPollInterval(-1);
                  Notification.show("Replay failed: " + ConsoleText.refusal(e));
                });
            return;
          }
          ui.access(
              () -> {
                progress.setVisible(false);
                ui.setPollInterval(-1);
                Notification.show(DeadLetter.replayed(result));
                load();
              });
        });
  }
}
