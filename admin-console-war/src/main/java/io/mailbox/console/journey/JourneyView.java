package io.mailbox.console.journey;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.notification.Notification;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.QueryParameters;
import com.vaadin.flow.router.Route;
import io.mailbox.console.address.AddressView;
import io.mailbox.console.deadletters.DeadLetter;
import io.mailbox.console.layout.ConsoleLayout;
import io.mailbox.console.layout.ConsoleText;
import io.mailbox.console.security.ConsoleAccessControl;
import io.mailbox.ejb.operations.JourneyHop;
import io.mailbox.ejb.operations.MailboxOperations;
import io.mailbox.ejb.operations.MessageJourney;
import io.mailbox.ejb.operations.OutboxOperations;
import jakarta.inject.Inject;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * "Where is my message?" ({@code journey?q=...}): one search across the outbox, every provider that
 * can look, the dead letters, parked records and the inbox; the hops in time order, newest last,
 * each with the actions that apply there one click away for an operator (release, replay, purge,
 * open the address).
 */
@Route(value = "journey", layout = ConsoleLayout.class)
@PageTitle("Where is my message? · Mailbox")
public class JourneyView extends VerticalLayout implements BeforeEnterObserver {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

  private final MessageJourney journey;
  private final MailboxOperations mailbox;
  private final OutboxOperations outbox;
  private final ConsoleAccessControl accessControl;
  private final TextField term = new TextField();
  private final Span notes = new Span();
  private final Grid<JourneyHop> hops = new Grid<>(JourneyHop.class, false);

  @Inject
  public JourneyView(
      MessageJourney journey,
      MailboxOperations mailbox,
      OutboxOperations outbox,
      ConsoleAccessControl accessControl) {
    this.journey = journey;
    this.mailbox = mailbox;
    this.outbox = outbox;
    this.accessControl = accessControl;
    setSizeFull();
    term.setId("journey-term");
    term.setPlaceholder("Message id, envelope id, copy key, or text of the body");
    term.setWidth("32rem");
    term.setMaxLength(MessageJourney.MAX_TERM);
    Button search = new Button("Search", click -> search());
    search.setId("journey-search");
    search.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
    search.addClickShortcut(com.vaadin.flow.component.Key.ENTER);
    notes.setId("journey-notes");
    hops.setId("journey-hops");
    hops.addThemeVariants(GridVariant.LUMO_ROW_STRIPES, GridVariant.LUMO_COMPACT);
    hops.addColumn(hop -> hop.at() == null ? "–" : TIME.format(hop.at()) + " UTC")
        .setHeader("When")
        .setAutoWidth(true)
        .setFlexGrow(0);
    hops.addColumn(JourneyHop::hop).setHeader("Hop").setAutoWidth(true).setFlexGrow(0);
    hops.addColumn(JourneyHop::where).setHeader("Where").setFlexGrow(3);
    hops.addColumn(JourneyHop::state).setHeader("State").setAutoWidth(true).setFlexGrow(0);
    hops.addColumn(JourneyHop::detail).setHeader("Detail").setFlexGrow(3);
    hops.addComponentColumn(this::actions).setHeader("Actions").setAutoWidth(true).setFlexGrow(0);
    hops.setSizeFull();
    add(new H2("Where is my message?"), new HorizontalLayout(term, search), notes, hops);
  }

  @Override
  public void beforeEnter(BeforeEnterEvent event) {
    ConsoleText.queryParameter(event, "q")
        .ifPresent(
            q -> {
              term.setValue(q);
              search();
            });
  }

  private void search() {
    try {
      JourneyHop.Journey found = journey.search(term.getValue());
      hops.setItems(found.hops());
      String summary =
          found.hops().isEmpty()
              ? "Found nowhere Mailbox keeps messages."
              : found.hops().size() + " hop(s), oldest first.";
      notes.setText(
          summary
              + (found.notes().isEmpty()
                  ? ""
                  : " Not searched or cut: " + String.join("; ", found.notes())));
    } catch (RuntimeException e) {
      hops.setItems(List.of());
      notes.setText(ConsoleText.refusal(e));
    }
  }

  private HorizontalLayout actions(JourneyHop hop) {
    HorizontalLayout buttons = new HorizontalLayout();
    buttons.setSpacing(true);
    for (String action : hop.actions()) {
      if (action.equals("open")) {
        Button open = new Button("Open", click -> open(hop.where()));
        open.addThemeVariants(ButtonVariant.LUMO_TERTIARY_INLINE);
        buttons.add(open);
      } else if (accessControl.isOperator()) {
        Button act = new Button(label(action), click -> act(hop, action));
        act.setId("journey-" + action + "-" + hop.key());
        act.addThemeVariants(ButtonVariant.LUMO_TERTIARY_INLINE);
        buttons.add(act);
      }
    }
    return buttons;
  }

  private static String label(String action) {
    return switch (action) {
      case "release-retry" -> "Retry";
      case "release-discard" -> "Discard";
      case "replay" -> "Replay";
      case "purge" -> "Purge";
      default -> action;
    };
  }

  private void open(String address) {
    getUI().ifPresent(ui -> ui.navigate(AddressView.class, QueryParameters.of("address", address)));
  }

  private void act(JourneyHop hop, String action) {
    accessControl.requireOperator("journey." + action);
    try {
      String done =
          switch (hop.hop() + " " + action) {
            case "outbox release-retry", "outbox release-discard" ->
                outbox.releaseOutbox(List.of(hop.key()), action.endsWith("retry"))
                    + " row released.";
            case "inbox release-retry", "inbox release-discard" ->
                outbox.releaseInbox(
                        outbox.parkedInbox(1000).stream()
                            .filter(row -> row.id().equals(hop.key()))
                            .toList(),
                        action.endsWith("retry"))
                    + " delivery released.";
            case "dead-letter replay" ->
                DeadLetter.replayed(mailbox.replay(hop.where(), List.of(hop.key()), 50, p -> {}));
            case "parked purge" -> mailbox.purgeParked(hop.where(), hop.key()) + " record purged.";
            default -> "Nothing to do.";
          };
      Notification.show(done);
    } catch (RuntimeException e) {
      Notification.show(ConsoleText.refusal(e));
    }
    search();
  }
}
