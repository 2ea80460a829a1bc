package io.mailbox.ejb.operations;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.ejb.inbox.InboxRow;
import io.mailbox.ejb.inbox.InboxSearch;
import io.mailbox.ejb.inbox.InboxStatus;
import io.mailbox.ejb.outbox.OutboxRow;
import io.mailbox.ejb.outbox.OutboxSearch;
import io.mailbox.ejb.outbox.OutboxStatus;
import jakarta.annotation.security.DeclareRoles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptors;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * "Where is my message?": one search across every hop Mailbox keeps — outbox rows, the copies on
 * every provider that can look (queued, in flight, dead letters, parked), and inbox markers — by
 * message id, envelope id, copy key, or a fragment of the body. The answer is a journey: each hop
 * with its time and state, newest last, and the actions that apply there. Bounded in rows and time
 * ({@link #DEADLINE_MILLIS}); providers that cannot search say so in the notes.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
@DeclareRoles({CallerRoles.VIEWER, CallerRoles.OPERATOR})
@RolesAllowed({CallerRoles.VIEWER, CallerRoles.OPERATOR})
@Interceptors(RefusedOperation.Interceptor.class)
public class MessageJourney {
  /** The longest term searched for. */
  public static final int MAX_TERM = 512;

  /** The rows read per store (outbox, inbox). */
  static final int ROWS = 20;

  /** How long one search may take in all; each table query gets part of it. */
  static final int DEADLINE_MILLIS = 5_000;

  /** The most hops a journey lists. */
  static final int MAX_HOPS = 200;

  @PersistenceContext(unitName = "mailbox")
  private EntityManager em;

  @Inject private MailboxConnectionFactory connections;

  public JourneyHop.Journey search(String term) {
    if (term == null || term.isBlank() || term.strip().length() > MAX_TERM) {
      throw new MailboxException(
          ErrorCode.INVALID_REQUEST,
          "Search for a message id, envelope id, copy key or text of 1 to "
              + MAX_TERM
              + " characters.");
    }
    String wanted = term.strip();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DEADLINE_MILLIS);
    List<JourneyHop> hops = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    List<OutboxRow> rows;
    try {
      rows = OutboxSearch.find(em, wanted, ROWS, DEADLINE_MILLIS / 3);
    } catch (RuntimeException unanswered) {
      // A database that is down or hung: say so, search the providers anyway.
      notes.add("outbox and inbox not searched: the database " + failure(unanswered));
      return searchCopies(wanted, java.util.Set.of(wanted), hops, notes, deadline);
    }
    rows.forEach(row -> hops.addAll(outbox(row)));
    // The rows found by text lead to their messages: each row's id is the message id its copies
    // carry and the envelope id its consumers' inbox markers keep (the markers of processed
    // deliveries keep no envelope to search in).
    java.util.Set<String> ids = new java.util.LinkedHashSet<>();
    ids.add(wanted);
    rows.forEach(row -> ids.add(row.id()));
    java.util.Map<String, InboxRow> markers = new java.util.LinkedHashMap<>();
    try {
      for (String id : ids) {
        InboxSearch.find(em, id, id.equals(wanted), ROWS, DEADLINE_MILLIS / 3)
            .forEach(marker -> markers.putIfAbsent(marker.id(), marker));
      }
    } catch (RuntimeException unanswered) {
      notes.add("inbox not searched: the database " + failure(unanswered));
    }
    markers.values().forEach(marker -> hops.add(inbox(marker)));
    return searchCopies(wanted, ids, hops, notes, deadline);
  }

  private JourneyHop.Journey searchCopies(
      String wanted,
      java.util.Set<String> ids,
      List<JourneyHop> hops,
      List<String> notes,
      long deadline) {
    boolean truncated;
    try (MailboxConnection connection = connections.getConnection()) {
      CopySearch copies = new CopySearch(connection, deadline);
      copies.search(wanted, ids);
      hops.addAll(copies.hops());
      notes.addAll(copies.notes());
      truncated = copies.truncated();
    }
    if (wanted.length() < OutboxSearch.MIN_FRAGMENT) {
      notes.add("shorter than " + OutboxSearch.MIN_FRAGMENT + " characters: matched as an id only");
    }
    return new JourneyHop.Journey(
        wanted, inTimeOrder(hops), notes, truncated || hops.size() > MAX_HOPS);
  }

  /** Why a store could not be searched, in words: no driver message, no SQL, no values. */
  static String failure(RuntimeException unanswered) {
    for (Throwable cause = unanswered; cause != null; cause = cause.getCause()) {
      if (cause instanceof jakarta.persistence.QueryTimeoutException
          || cause instanceof java.sql.SQLTimeoutException
          || cause instanceof java.sql.SQLException sql && "57014".equals(sql.getSQLState())) {
        return "did not answer within " + DEADLINE_MILLIS / 3 + " ms";
      }
    }
    return "could not be reached (" + unanswered.getClass().getSimpleName() + ")";
  }

  /** Oldest first, newest last; hops without a time after them. */
  static List<JourneyHop> inTimeOrder(List<JourneyHop> hops) {
    return hops.stream()
        .sorted(
            Comparator.comparing(JourneyHop::at, Comparator.nullsLast(Comparator.naturalOrder())))
        .limit(MAX_HOPS)
        .toList();
  }

  /** A row's hops: written, and sent or discarded when it was settled. */
  static List<JourneyHop> outbox(OutboxRow row) {
    String where = row.topic() + " → " + row.address();
    String detail =
        "attempts " + row.attempts() + (row.lastError() == null ? "" : ": " + cut(row.lastError()));
    List<String> actions =
        row.status() == OutboxStatus.FAILED
            ? List.of("release-retry", "release-discard")
            : List.of();
    List<JourneyHop> hops = new ArrayList<>();
    hops.add(
        new JourneyHop(
            Instant.ofEpochMilli(row.createdAt()),
            "outbox",
            where,
            row.settledAt() == null ? lower(row.status()) : "written",
            row.settledAt() == null ? detail : "",
            row.id(),
            row.settledAt() == null ? actions : List.of()));
    if (row.settledAt() != null) {
      hops.add(
          new JourneyHop(
              Instant.ofEpochMilli(row.settledAt()),
              "outbox",
              where,
              lower(row.status()),
              detail,
              row.id(),
              actions));
    }
    return hops;
  }

  static JourneyHop inbox(InboxRow marker) {
    return new JourneyHop(
        Instant.ofEpochMilli(marker.updatedAt()),
        "inbox",
        marker.consumer() + (marker.sourceAddress() == null ? "" : " ← " + marker.sourceAddress()),
        lower(marker.status()),
        "attempts "
            + marker.attempts()
            + (marker.lastError() == null ? "" : ": " + cut(marker.lastError())),
        marker.id(),
        marker.status() == InboxStatus.PARKED
            ? List.of("release-retry", "release-discard")
            : List.of());
  }

  private static String lower(Enum<?> status) {
    return status.name().toLowerCase(Locale.ROOT);
  }

  /** An error's first 200 characters: enough to recognise it, never a whole payload. */
  static String cut(String text) {
    return text.length() <= 200 ? text : text.substring(0, 200) + "…";
  }
}
