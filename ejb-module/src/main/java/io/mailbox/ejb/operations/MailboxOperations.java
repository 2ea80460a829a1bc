package io.mailbox.ejb.operations;

import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.Capabilities;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.InFlightCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.RecoverResult;
import io.mailbox.connector.api.Snapshot;
import io.mailbox.ejb.audit.AuditEntry;
import io.mailbox.ejb.audit.AuditLog;
import jakarta.annotation.Resource;
import jakarta.annotation.security.DeclareRoles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.EJB;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptors;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;

/**
 * Reads mailbox state for the console and the admin API through the adapter's connection factory,
 * and makes the operator's changes. Reads need no transaction. Roles are checked here, whoever
 * calls: reading needs {@value CallerRoles#VIEWER} or {@value CallerRoles#OPERATOR}, changing needs
 * {@value CallerRoles#OPERATOR}; every change is audited with the caller the container
 * authenticated.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
@DeclareRoles({CallerRoles.VIEWER, CallerRoles.OPERATOR})
@RolesAllowed({CallerRoles.VIEWER, CallerRoles.OPERATOR})
@Interceptors(RefusedOperation.Interceptor.class)
public class MailboxOperations {
  @Resource private SessionContext context;

  @Inject private MailboxConnectionFactory connections;

  /** Every address of every provider, sorted. */
  public Snapshot snapshot() {
    try (MailboxConnection connection = connections.getConnection()) {
      return connection.snapshot();
    }
  }

  @EJB private AuditLog audit;

  /** Returns expired leases of one address to its queue; audited with its result. */
  @RolesAllowed(CallerRoles.OPERATOR)
  public RecoverResult recover(String address) {
    return AuditedChange.run(
        audit,
        caller(),
        "address.recover",
        address,
        () -> {
          try (MailboxConnection connection = connections.getConnection()) {
            return connection.recover(address);
          }
        },
        result ->
            new AuditedChange.Outcome(
                result.reclaimed(),
                result.supported() ? AuditEntry.Result.SUCCEEDED : AuditEntry.Result.FAILED));
  }

  /** Read-only copies of the queued messages of an address, oldest first. */
  public List<MailMessage> peek(String address, int limit) {
    try (MailboxConnection connection = connections.getConnection()) {
      return connection.peek(address, limit);
    }
  }

  /** The copies of an address handed out under a lease and not settled (overdue ones too). */
  public List<InFlightCopy> inFlight(String address, int limit) {
    try (MailboxConnection connection = connections.getConnection()) {
      return connection.inFlight(address, limit);
    }
  }

  /** Removes every queued (not in-flight) message of an address; audited. */
  @RolesAllowed(CallerRoles.OPERATOR)
  public int purge(String address) {
    return AuditedChange.run(
        audit,
        caller(),
        "address.purge",
        address,
        () -> {
          try (MailboxConnection connection = connections.getConnection()) {
            return connection.removeQueued(address, null);
          }
        },
        AuditedChange.Outcome::succeeded);
  }

  /** The largest body of a test message, in characters. */
  public static final int MAX_TEST_BODY = 65_536;

  /** The header a test message carries, with the operator who sent it. */
  public static final String TEST_MESSAGE_HEADER = "mailbox-test-message-by";

  /**
   * Posts a test message to {@code address} at once (outside any transaction), marked with {@value
   * #TEST_MESSAGE_HEADER} and the operator; audited. Returns its message id.
   */
  @RolesAllowed(CallerRoles.OPERATOR)
  public String sendTestMessage(String address, String body) {
    if (body == null || body.isBlank() || body.length() > MAX_TEST_BODY) {
      throw new MailboxException(
          ErrorCode.INVALID_MESSAGE,
          "A test message needs a body of 1 to " + MAX_TEST_BODY + " characters.");
    }
    String operator = caller();
    return AuditedChange.run(
        audit,
        operator,
        "address.send-test",
        address,
        () -> {
          try (MailboxConnection connection = connections.getConnection()) {
            return connection.post(
                MailMessage.to(address).body(body).header(TEST_MESSAGE_HEADER, operator).build());
          }
        },
        id -> AuditedChange.Outcome.succeeded(1));
  }

  /**
   * The dead-letter addresses among the known addresses: those some known address gives up to.
   * Sorted.
   */
  public List<String> deadLetterAddresses() {
    try (MailboxConnection connection = connections.getConnection()) {
      return List.copyOf(deadLetterAddresses(connection, connection.snapshot()));
    }
  }

  /**
   * The addresses of {@code snapshot} where another of its addresses' dead letters go, sorted: what
   * the dead-letter view lists and where the alert rules count dead letters.
   */
  public static Set<String> deadLetterAddresses(MailboxConnection connection, Snapshot snapshot) {
    Set<String> known = new TreeSet<>();
    snapshot.addresses().forEach(a -> known.add(a.address().toString()));
    Set<String> deadLetters = new TreeSet<>();
    for (String address : known) {
      connection
          .deadLetterTopic(address)
          .filter(known::contains)
          .filter(topic -> !topic.equals(address))
          .ifPresent(deadLetters::add);
    }
    return deadLetters;
  }

  /** What a replay did. */
  /**
   * What a replay did: {@code replayed} posted back and removed here; {@code notRemoved} posted
   * back but still here (in flight, or taken meanwhile: it may be replayed again, a marked repeat);
   * {@code missing} no longer here; {@code failed} not posted (still a dead letter).
   */
  public record ReplayResult(int requested, int replayed, int notRemoved, int missing, int failed) {
    /** A replay that left nothing to look at: every record posted back and removed. */
    public boolean clean() {
      return replayed == requested;
    }
  }

  /**
   * Replays dead-letter records (by copy key) to the addresses they were given up at, at most
   * {@code perSecond} a second: each copy is posted first, then the record removed, so a crash in
   * between repeats a replay (marked) and never loses one. A key no longer queued (replayed or
   * purged meanwhile) counts as missing. One audit entry for the whole call. Refused with {@code
   * MBX-1007} before anything is posted where the dead-letter address's provider cannot remove one
   * record ({@value Capabilities#REMOVE}): the record would stay and be replayed twice.
   *
   * @param progress told after each record how many of the keys are done
   */
  @RolesAllowed(CallerRoles.OPERATOR)
  public ReplayResult replay(
      String deadLetterAddress, List<String> keys, int perSecond, IntConsumer progress) {
    if (perSecond < 1 || perSecond > 1000) {
      throw new MailboxException(
          ErrorCode.INVALID_POLICY, "The replay rate must be 1 to 1000 a second.");
    }
    return AuditedChange.run(
        audit,
        caller(),
        "deadletter.replay",
        deadLetterAddress,
        () -> replayPaced(deadLetterAddress, keys, perSecond, progress),
        result ->
            new AuditedChange.Outcome(
                result.replayed(),
                result.clean() ? AuditEntry.Result.SUCCEEDED : AuditEntry.Result.FAILED));
  }

  private ReplayResult replayPaced(
      String deadLetterAddress, List<String> keys, int perSecond, IntConsumer progress) {
    int replayed = 0;
    int notRemoved = 0;
    int missing = 0;
    int failed = 0;
    try (MailboxConnection connection = connections.getConnection()) {
      requireRemovable(connection, deadLetterAddress);
      Map<String, MailMessage> queued = new HashMap<>();
      for (MailMessage record : connection.peek(deadLetterAddress, FetchOptions.MAX_LIMIT)) {
        record.sendId().ifPresent(key -> queued.put(key, record));
      }
      long pace = 1_000_000_000L / perSecond;
      long next = System.nanoTime();
      int done = 0;
      for (String key : keys) {
        MailMessage record = queued.get(key);
        if (record == null) {
          missing++;
        } else {
          boolean posted = false;
          try {
            connection.post(DeadLetterReplay.replayCopy(record, deadLetterAddress));
            posted = true;
            // Removed only after the post: if someone took the record meanwhile, this is a
            // (marked) repeat, never a loss; one that could not be removed is said so.
            if (connection.removeQueued(deadLetterAddress, key) > 0) {
              replayed++;
            } else {
              notRemoved++;
            }
          } catch (RuntimeException e) {
            if (posted) {
              notRemoved++;
            } else {
              failed++;
            }
          }
          next += pace;
          long wait = next - System.nanoTime();
          if (wait > 0) {
            LockSupport.parkNanos(wait);
          }
        }
        progress.accept(++done);
      }
    }
    return new ReplayResult(keys.size(), replayed, notRemoved, missing, failed);
  }

  /**
   * Whether one parked record of {@code address} can be purged by its key ({@code parked-remove}:
   * not on a log, which drops its parked records only all at once).
   */
  public boolean canPurgeOneParked(String address) {
    try (MailboxConnection connection = connections.getConnection()) {
      return connection.can(Capabilities.PARKED_REMOVE, MailAddress.parse(address));
    }
  }

  /** Whether the records at {@code deadLetterAddress} can be replayed (removed one by one). */
  public boolean canReplay(String deadLetterAddress) {
    try (MailboxConnection connection = connections.getConnection()) {
      return connection.can(Capabilities.REMOVE, MailAddress.parse(deadLetterAddress));
    }
  }

  private static void requireRemovable(MailboxConnection connection, String deadLetterAddress) {
    MailAddress address = MailAddress.parse(deadLetterAddress);
    if (!connection.can(Capabilities.REMOVE, address)) {
      throw new MailboxException(
          ErrorCode.UNSUPPORTED_CAPABILITY,
          "The "
              + address.scheme()
              + ": provider cannot remove one record from "
              + address
              + ", so a replay would leave it there to be replayed again: nothing was replayed."
              + " Its records can be listed; consume the address to act on them.");
    }
  }

  /** Read-only copies of the records parked at an address, oldest first. */
  public List<MailMessage> parked(String address, int limit) {
    try (MailboxConnection connection = connections.getConnection()) {
      return connection.peekParked(address, limit);
    }
  }

  /** Removes parked records (all of the address when {@code key} is null); audited. */
  @RolesAllowed(CallerRoles.OPERATOR)
  public int purgeParked(String address, String key) {
    return AuditedChange.run(
        audit,
        caller(),
        key == null ? "parked.purge-all" : "parked.purge",
        key == null ? address : address + " " + key,
        () -> {
          try (MailboxConnection connection = connections.getConnection()) {
            return connection.purgeParked(address, key);
          }
        },
        AuditedChange.Outcome::succeeded);
  }

  /** Who is calling, as the container authenticated them. */
  private String caller() {
    return context.getCallerPrincipal().getName();
  }

  /** One address; a malformed address is refused with its MBX code. */
  public AddressStatus status(String address) {
    try (MailboxConnection connection = connections.getConnection()) {
      return connection.status(address);
    }
  }
}
