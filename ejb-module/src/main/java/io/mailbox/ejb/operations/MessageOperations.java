package io.mailbox.ejb.operations;

import io.mailbox.connector.api.Capabilities;
import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.SystemHeaders;
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
import java.util.Optional;

/**
 * One queued message in full, and what an operator does to it: move it to another address or delete
 * it, where its provider can remove a queued copy ({@value Capabilities#REMOVE}). A message is
 * found by its copy key among the first {@link FetchOptions#MAX_LIMIT} queued at its address (what
 * the console lists is within them). Roles as {@link MailboxOperations}; every change audited.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
@DeclareRoles({CallerRoles.VIEWER, CallerRoles.OPERATOR})
@RolesAllowed({CallerRoles.VIEWER, CallerRoles.OPERATOR})
@Interceptors(RefusedOperation.Interceptor.class)
public class MessageOperations {
  /** The address a moved message came from. */
  public static final String MOVED_FROM = "mailbox-moved-from";

  /** The operator who moved it. */
  public static final String MOVED_BY = "mailbox-moved-by";

  @Resource private SessionContext context;

  @Inject private MailboxConnectionFactory connections;

  @EJB private AuditLog audit;

  /** The queued message with copy key {@code key}, headers and whole body; empty when gone. */
  public Optional<MailMessage> find(String address, String key) {
    try (MailboxConnection connection = connections.getConnection()) {
      return find(connection, address, key);
    }
  }

  /**
   * Whether the address's provider can do {@code capability} ({@link Capabilities}): the console
   * offers only what would not be refused ({@code remove} for move and delete, {@code purge}).
   */
  public boolean can(String address, String capability) {
    try (MailboxConnection connection = connections.getConnection()) {
      return connection.can(capability, MailAddress.parse(address));
    }
  }

  /** What a move did. */
  public record MoveResult(boolean found, String copyId, boolean originalRemoved) {}

  /**
   * Posts a copy of the message to {@code target} (same id, body and headers, marked {@value
   * #MOVED_FROM} and {@value #MOVED_BY}), then removes the original. The copy goes first: if a
   * consumer takes the original meanwhile, it is delivered twice ({@code originalRemoved} false,
   * the audit says FAILED), never lost. Audited as {@code message.move}.
   */
  @RolesAllowed(CallerRoles.OPERATOR)
  public MoveResult move(String address, String key, String target) {
    MailAddress from = MailAddress.parse(address);
    MailAddress to = MailAddress.parse(target);
    if (from.equals(to)) {
      throw new MailboxException(
          ErrorCode.INVALID_REQUEST, "The target is the message's own address; nothing to move.");
    }
    String operator = caller();
    return AuditedChange.run(
        audit,
        operator,
        "message.move",
        address + " -> " + target,
        () -> {
          try (MailboxConnection connection = connections.getConnection()) {
            requireRemove(connection, from);
            Optional<MailMessage> found = find(connection, address, key);
            if (found.isEmpty()) {
              return new MoveResult(false, null, false);
            }
            String copy = connection.post(copy(found.get(), to, address, operator));
            return new MoveResult(true, copy, connection.removeQueued(from, key) > 0);
          }
        },
        result ->
            new AuditedChange.Outcome(
                result.found() ? 1 : 0,
                result.originalRemoved() ? AuditEntry.Result.SUCCEEDED : AuditEntry.Result.FAILED));
  }

  /**
   * Removes the queued message; 0 when it was no longer queued. Audited as {@code message.delete}.
   */
  @RolesAllowed(CallerRoles.OPERATOR)
  public int delete(String address, String key) {
    MailAddress at = MailAddress.parse(address);
    return AuditedChange.run(
        audit,
        caller(),
        "message.delete",
        address,
        () -> {
          try (MailboxConnection connection = connections.getConnection()) {
            requireRemove(connection, at);
            return connection.removeQueued(at, key);
          }
        },
        AuditedChange.Outcome::succeeded);
  }

  private static Optional<MailMessage> find(
      MailboxConnection connection, String address, String key) {
    if (key == null || key.isBlank()) {
      throw new MailboxException(ErrorCode.INVALID_REQUEST, "A message is chosen by its key.");
    }
    return connection.peek(address, FetchOptions.MAX_LIMIT).stream()
        .filter(message -> message.sendId().filter(key::equals).isPresent())
        .findFirst();
  }

  private static void requireRemove(MailboxConnection connection, MailAddress address) {
    if (!connection.can(Capabilities.REMOVE, address)) {
      throw new MailboxException(
          ErrorCode.UNSUPPORTED_CAPABILITY,
          "The " + address.scheme() + ": provider cannot remove one queued message.");
    }
  }

  /** The message for {@code to}: the sender's id, body, meta and headers, and the move's marks. */
  static MailMessage copy(MailMessage message, MailAddress to, String from, String operator) {
    MailMessage.Builder copy = MailMessage.to(to).id(message.id()).body(message.body());
    message.from().ifPresent(copy::from);
    message.meta().forEach(copy::meta);
    message
        .headers()
        .forEach(
            (name, value) -> {
              if (!SystemHeaders.isSystemHeader(name)) {
                copy.header(name, value);
              }
            });
    return copy.header(MOVED_FROM, from).header(MOVED_BY, operator).build();
  }

  private String caller() {
    return context.getCallerPrincipal().getName();
  }
}
