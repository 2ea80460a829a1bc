package io.mailbox.ejb.operations;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.Capabilities;
import io.mailbox.connector.api.CopyState;
import io.mailbox.connector.api.LocatedCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.ProviderState;
import io.mailbox.connector.api.Snapshot;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.ejb.outbox.OutboxSearch;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The copies of a searched message on the providers: located by message id where a provider can
 * locate, and for a fragment, found among the queued and parked messages of every address that has
 * some, where the provider can peek. Bounded: at most {@link #PER_ADDRESS} messages read per
 * address and {@link #BUDGET} in all, and a deadline; what was left unread or unsearchable is said
 * in the notes.
 */
final class CopySearch {
  static final int PER_ADDRESS = 200;
  static final int BUDGET = 5_000;

  private final MailboxConnection connection;
  private final long deadlineNanos;
  private final Map<String, JourneyHop> hops = new LinkedHashMap<>();
  private final List<String> notes = new ArrayList<>();
  private int read;
  private boolean truncated;

  CopySearch(MailboxConnection connection, long deadlineNanos) {
    this.connection = connection;
    this.deadlineNanos = deadlineNanos;
  }

  List<JourneyHop> hops() {
    return List.copyOf(hops.values());
  }

  List<String> notes() {
    return notes;
  }

  boolean truncated() {
    return truncated;
  }

  /**
   * @param ids message ids to locate: the term itself and the ids of the outbox rows it found
   */
  void search(String term, java.util.Collection<String> ids) {
    Snapshot snapshot = connection.snapshot();
    Set<String> deadLetters = MailboxOperations.deadLetterAddresses(connection, snapshot);
    Set<String> down = new java.util.TreeSet<>();
    for (ProviderState provider : snapshot.providers()) {
      if (!provider.serving()) {
        down.add(provider.scheme());
        notes.add(
            provider.scheme()
                + ": down (stopped, or its status did not answer): copies not searched");
        continue;
      }
      MailAddress probe = MailAddress.parse(provider.scheme() + "://journey@mailbox");
      if (!connection.can(Capabilities.LOCATE, probe)) {
        notes.add(provider.scheme() + ": cannot locate a message by id");
      }
      if (!connection.can(Capabilities.PEEK, probe)) {
        // The probe is a live address: a provider that looks only into queues nobody consumes
        // (amqp: dead-letter queues) still has those searched below, by address.
        notes.add(
            provider.scheme()
                + ": cannot show the messages of its live queues (not searched by text there)");
      }
    }
    // A locate asks every provider that can: one that is down would only make it wait for that
    // provider's bound, so none is asked then (the note above says which was down).
    List<LocatedCopy> located = new ArrayList<>();
    if (down.isEmpty()) {
      try {
        ids.forEach(id -> located.addAll(connection.locate(id)));
      } catch (RuntimeException unanswered) {
        notes.add(
            "copies not located by id: a provider failed ("
                + unanswered.getClass().getSimpleName()
                + ")");
      }
    }
    for (LocatedCopy copy : located) {
      Instant at = null;
      String detail = "";
      Map<String, MailMessage> there = readable(copy.address(), copy.state() == CopyState.PARKED);
      MailMessage message = there.get(copy.key());
      if (message != null) {
        at = sentAt(message);
        detail = deadLetterDetail(message);
      }
      add(copy.address().toString(), copy.key(), copy.state(), at, detail, deadLetters);
    }
    if (term.length() < OutboxSearch.MIN_FRAGMENT) {
      return;
    }
    for (AddressStatus status : snapshot.addresses()) {
      if (outOfBudget()) {
        return;
      }
      MailAddress address = status.address();
      if (down.contains(address.scheme())) {
        continue;
      }
      if (status.unreadCount() > 0 && connection.can(Capabilities.PEEK, address)) {
        scan(address, false, term, deadLetters);
      }
      if (status.extensions().get(address.scheme() + ".parkedCount") instanceof Number parked
          && parked.longValue() > 0
          && connection.can(Capabilities.PARKED, address)) {
        scan(address, true, term, deadLetters);
      }
    }
  }

  private void scan(MailAddress address, boolean parked, String term, Set<String> deadLetters) {
    for (MailMessage message : readable(address, parked).values()) {
      if (matches(message, term)) {
        add(
            address.toString(),
            message.sendId().orElse(""),
            parked ? CopyState.PARKED : CopyState.QUEUED,
            sentAt(message),
            deadLetterDetail(message),
            deadLetters);
      }
    }
  }

  private boolean outOfBudget() {
    if (read >= BUDGET || System.nanoTime() > deadlineNanos) {
      if (!truncated) {
        notes.add("stopped after reading " + read + " messages: the search is bounded");
      }
      truncated = true;
      return true;
    }
    return false;
  }

  /** The first messages at the address (or its parked records), by copy key. */
  private Map<String, MailMessage> readable(MailAddress address, boolean parked) {
    Map<String, MailMessage> byKey = new LinkedHashMap<>();
    try {
      List<MailMessage> messages =
          parked
              ? connection.peekParked(address, PER_ADDRESS)
              : connection.peek(address, PER_ADDRESS);
      read += messages.size();
      messages.forEach(m -> m.sendId().ifPresent(key -> byKey.put(key, m)));
    } catch (RuntimeException unreadable) {
      notes.add(address + ": could not be read (" + unreadable.getClass().getSimpleName() + ")");
    }
    return byKey;
  }

  /** Whether the message is the one searched for: its id, copy key, a header value or its body. */
  static boolean matches(MailMessage message, String term) {
    return message.id().equals(term)
        || message.sendId().filter(term::equals).isPresent()
        || message.body().contains(term)
        || message.headers().values().stream().anyMatch(value -> value.contains(term));
  }

  private void add(
      String address,
      String key,
      CopyState state,
      Instant at,
      String detail,
      Set<String> deadLetters) {
    boolean deadLetter = deadLetters.contains(address) && state != CopyState.PARKED;
    String hop =
        switch (state) {
          case PARKED -> "parked";
          case IN_FLIGHT -> "in-flight";
          case QUEUED -> deadLetter ? "dead-letter" : "queued";
        };
    List<String> actions =
        switch (hop) {
          case "dead-letter" ->
              can(Capabilities.REMOVE, address) ? List.of("replay", "open") : List.of("open");
          case "queued" -> List.of("open");
          case "parked" -> can(Capabilities.PARKED_REMOVE, address) ? List.of("purge") : List.of();
          default -> List.of();
        };
    hops.putIfAbsent(
        address + '\u0000' + key,
        new JourneyHop(
            at,
            hop,
            address,
            state.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '),
            detail,
            key,
            actions));
  }

  /**
   * Whether one record can be taken out there: a replay removes the record after posting it, and a
   * parked hop's purge removes that one record; neither is offered where it would be refused.
   */
  private boolean can(String capability, String address) {
    try {
      return connection.can(capability, MailAddress.parse(address));
    } catch (RuntimeException unknown) {
      return false;
    }
  }

  private static Instant sentAt(MailMessage message) {
    try {
      return message.header(SystemHeaders.SENT_AT).map(Instant::parse).orElse(null);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static String deadLetterDetail(MailMessage message) {
    return message
        .header(SystemHeaders.DEAD_LETTER_REASON)
        .map(
            reason ->
                reason
                    + " at "
                    + message.header(SystemHeaders.DEAD_LETTER_TOPIC).orElse("?")
                    + message
                        .header(SystemHeaders.DEAD_LETTER_ERROR)
                        .map(error -> ": " + MessageJourney.cut(error))
                        .orElse(""))
        .orElse("");
  }
}
