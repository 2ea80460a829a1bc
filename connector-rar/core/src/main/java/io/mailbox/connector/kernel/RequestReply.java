package io.mailbox.connector.kernel;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.spi.Ids;
import io.mailbox.connector.spi.SharesReplyInbox;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;

/**
 * Request/reply over each provider's ordinary post and subscribe, so every provider has it without
 * a line of its own.
 *
 * <ul>
 *   <li><b>Channels.</b> Requests to {@code scheme://user@host/path} travel on the derived address
 *       {@code .../rr.req.path} ({@link #requestsOf}): a plain subscriber of the address never sees
 *       a request, and a plain post to it never reaches a responder.
 *   <li><b>Correlation</b> is in the message's meta (the envelope every provider carries), not in a
 *       transport header: {@value #REPLY_TO} (the requester's inbox) and {@value #CORRELATION_ID}.
 *   <li><b>Reply inbox</b>: one per requesting process and user@host, {@code .../rr.inbox.<id>},
 *       subscribed on first use; replies that arrive after their request gave up are dropped. Where
 *       addresses are costly ({@link SharesReplyInbox}: Kafka), one shared inbox per user@host,
 *       {@value #SHARED_INBOX}, which each process reads in a group of its own, keeping the replies
 *       it waits for.
 *   <li><b>Errors</b>: no reply in time is {@code MBX-2010}; a responder that threw answers with
 *       its error's class and message (at most {@value #MAX_ERROR_CHARS} characters), raised as
 *       {@code MBX-2011} on the requesting side.
 *   <li><b>Trust</b>: a responder replies only to a reply inbox of the request's own scheme, so a
 *       forged {@value #REPLY_TO} cannot make it post to any other address.
 * </ul>
 */
public final class RequestReply {
  public static final String REQUESTS_PREFIX = "rr.req.";
  public static final String INBOX_PREFIX = "rr.inbox.";

  /** The shared reply inbox's path (a process's own inbox is 16 hex digits: never this). */
  public static final String SHARED_INBOX = INBOX_PREFIX + "shared";

  public static final String REPLY_TO = "rr-reply-to";
  public static final String CORRELATION_ID = "rr-correlation-id";
  public static final String REMOTE_ERROR = "rr-error";
  static final int MAX_ERROR_CHARS = 512;
  private static final Logger LOG = Logger.getLogger(RequestReply.class.getName());

  /** What a responder does with a request: the reply's body, or an exception sent back. */
  @FunctionalInterface
  public interface Responder {
    String reply(MailMessage request) throws Exception;
  }

  private final String instance = Ids.next().replace("-", "").substring(0, 16);
  private final Map<String, CompletableFuture<MailMessage>> waiting = new ConcurrentHashMap<>();
  private final Map<MailAddress, Subscription> inboxes = new ConcurrentHashMap<>();

  /** The address requests to {@code address} travel on. */
  public static MailAddress requestsOf(MailAddress address) {
    return sibling(address, REQUESTS_PREFIX + address.path());
  }

  /** This process's reply inbox beside {@code address}; the shared one where addresses cost. */
  MailAddress inboxFor(MailboxProvider provider, MailAddress address) {
    return sibling(
        address,
        provider.transport() instanceof SharesReplyInbox ? SHARED_INBOX : INBOX_PREFIX + instance);
  }

  /** Whether {@code address} is a shared reply inbox ({@link SharesReplyInbox}). */
  public static boolean isSharedInbox(MailAddress address) {
    return address.path().equals(SHARED_INBOX);
  }

  /**
   * Posts {@code request} to {@code address}'s request channel and waits at most {@code timeout}
   * for its reply. Sent at once, outside any transaction (its reply could never come otherwise).
   */
  public MailMessage request(
      MailboxProvider provider, MailAddress address, MailMessage request, Duration timeout) {
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new MailboxException(
          ErrorCode.INVALID_POLICY, "A request's timeout must be positive, for example 5 s.");
    }
    MailAddress inbox = inboxFor(provider, address);
    inboxes.computeIfAbsent(
        inbox, ignored -> provider.subscribe(inbox, MailboxSubscriber.of(this::replied)));
    String correlation = Ids.next();
    CompletableFuture<MailMessage> reply = new CompletableFuture<>();
    waiting.put(correlation, reply);
    try {
      provider.post(
          request.toBuilder()
              .to(requestsOf(address))
              .meta(REPLY_TO, inbox.toString())
              .meta(CORRELATION_ID, correlation)
              .build());
      MailMessage answer = reply.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      String remoteError = answer.meta().get(REMOTE_ERROR);
      if (remoteError != null) {
        throw new MailboxException(
            ErrorCode.REMOTE_HANDLER_FAILED,
            "The responder at " + address + " failed: " + remoteError);
      }
      return answer;
    } catch (TimeoutException e) {
      throw new MailboxException(
          ErrorCode.REQUEST_TIMEOUT,
          "No reply to the request to "
              + address
              + " within "
              + timeout.toMillis()
              + " ms. The responder may still act on it; a retry sends the same message id.");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MailboxException(
          ErrorCode.REQUEST_TIMEOUT, "The request to " + address + " was interrupted.", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause()); // replies complete, never fail
    } finally {
      waiting.remove(correlation);
    }
  }

  /** Answers every request to {@code address} with {@code responder}, until unsubscribed. */
  public Subscription respond(MailboxProvider provider, MailAddress address, Responder responder) {
    return provider.subscribe(
        requestsOf(address), MailboxSubscriber.of(request -> answer(provider, request, responder)));
  }

  /** Replies {@code body} to {@code request} (a responder that consumes its channel itself). */
  public void reply(MailboxProvider provider, MailMessage request, String body) {
    replyTo(request).ifPresent(reply -> provider.post(reply.body(body).build()));
  }

  /** Replies {@code failure}'s class and message to {@code request}. */
  public void replyFailure(MailboxProvider provider, MailMessage request, Throwable failure) {
    replyTo(request).ifPresent(reply -> provider.post(failureReply(reply, failure)));
  }

  /** Unsubscribes the reply inboxes (the kernel stops). */
  void close() {
    inboxes.values().forEach(Subscription::unsubscribe);
    inboxes.clear();
    waiting.clear();
  }

  private void answer(MailboxProvider provider, MailMessage request, Responder responder) {
    Optional<MailMessage.Builder> reply = replyTo(request);
    if (reply.isEmpty()) {
      return; // said why in replyTo; nothing to answer
    }
    String body;
    try {
      body = responder.reply(request);
    } catch (Exception failure) {
      provider.post(failureReply(reply.get(), failure));
      return;
    }
    provider.post(reply.get().body(body == null ? "" : body).build());
  }

  /** The reply's builder, or empty (logged) for a request without a valid reply inbox. */
  private static Optional<MailMessage.Builder> replyTo(MailMessage request) {
    String inbox = request.meta().get(REPLY_TO);
    String correlation = request.meta().get(CORRELATION_ID);
    MailAddress to;
    try {
      to = inbox == null ? null : MailAddress.parse(inbox);
    } catch (MailboxException malformed) {
      to = null;
    }
    if (to == null
        || correlation == null
        || !to.scheme().equals(request.to().scheme())
        || !to.path().startsWith(INBOX_PREFIX)) {
      LOG.warning(
          () ->
              "A message at "
                  + request.to()
                  + " has no valid reply inbox (id "
                  + request.id()
                  + "): not answered");
      return Optional.empty();
    }
    return Optional.of(MailMessage.to(to).meta(CORRELATION_ID, correlation));
  }

  private void replied(MailMessage reply) {
    String correlation = reply.meta().get(CORRELATION_ID);
    CompletableFuture<MailMessage> request = correlation == null ? null : waiting.get(correlation);
    if (request == null) {
      // Its request gave up, or (a shared inbox) another process's request is waiting for it.
      LOG.fine(() -> "A reply at " + reply.to() + " is not awaited here: dropped");
      return;
    }
    request.complete(reply);
  }

  private static MailMessage failureReply(MailMessage.Builder reply, Throwable failure) {
    return reply.body("").meta(REMOTE_ERROR, describe(failure)).build();
  }

  static String describe(Throwable failure) {
    String text = failure.getClass().getName();
    if (failure.getMessage() != null) {
      text += ": " + failure.getMessage();
    }
    text = text.replaceAll("\\p{Cntrl}", " ");
    return text.length() <= MAX_ERROR_CHARS ? text : text.substring(0, MAX_ERROR_CHARS);
  }

  private static MailAddress sibling(MailAddress address, String path) {
    return MailAddress.parse(
        address.scheme() + "://" + address.user() + "@" + address.host() + "/" + path);
  }
}
