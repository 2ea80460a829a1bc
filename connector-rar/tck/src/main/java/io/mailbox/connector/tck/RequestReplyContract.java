package io.mailbox.connector.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.kernel.MailboxSubscriber;
import io.mailbox.connector.kernel.RequestReply;
import io.mailbox.connector.kernel.Subscription;
import io.mailbox.connector.testsupport.Eventually;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The conformance kit's request/reply (issue 18): the kernel's {@link RequestReply} over the
 * provider's own post and subscribe — a reply comes back to its requester, the request channel and
 * the address never see each other's messages, no reply is a coded timeout, and a failing responder
 * is a coded remote failure naming its error, never the request's body. Part of {@link
 * ProviderContract}; not meant to be extended on its own.
 */
public abstract class RequestReplyContract extends PublishContract {
  private static final String SECRET = "request-body-5c1d";

  private final RequestReply requests = new RequestReply();
  private final List<Subscription> responders = new CopyOnWriteArrayList<>();

  /** How long a request may wait in these cases: a broker's first subscription takes a while. */
  protected Duration requestTimeout() {
    return Duration.ofSeconds(20);
  }

  @AfterEach
  void stopResponders() {
    responders.forEach(Subscription::unsubscribe);
  }

  private void respond(MailAddress address, RequestReply.Responder responder) {
    responders.add(requests.respond(provider, address, responder));
  }

  @Test
  void aRequestIsAnsweredByItsResponderAndPlainSubscribersNeverSeeIt() {
    MailAddress lookup = address("lookup");
    List<MailMessage> plain = new CopyOnWriteArrayList<>();
    responders.add(provider.subscribe(lookup, MailboxSubscriber.of(plain::add)));
    List<MailMessage> asked = new CopyOnWriteArrayList<>();
    respond(
        lookup,
        request -> {
          asked.add(request);
          return "{\"name\":\"Ada\",\"for\":" + request.body() + "}";
        });

    MailMessage reply =
        requests.request(
            provider,
            lookup,
            MailMessage.to(lookup).id("q-1").body("{\"userId\":42}").build(),
            requestTimeout());

    assertThat(reply.body()).isEqualTo("{\"name\":\"Ada\",\"for\":{\"userId\":42}}");
    assertThat(asked).singleElement().satisfies(r -> assertThat(r.id()).isEqualTo("q-1"));
    provider.post(letter(lookup, "plain"));
    await("the plain post reached the plain subscriber", () -> plain.size() == 1);
    assertThat(plain)
        .as("requests travel apart from the address")
        .extracting(MailMessage::id)
        .containsExactly("plain");
    assertThat(asked).as("a plain post never reaches a responder").hasSize(1);
  }

  @Test
  void aRequestWhileTheBrokerDoesNotAnswerFailsCodedAndTheNextIsAnsweredOnceItDoes()
      throws Exception {
    try (Unanswering unanswering = unansweringOrSkip()) {
      MailboxProvider bounded = unanswering.provider();
      RequestReply requester = new RequestReply();
      MailAddress lookup = address("frozen-lookup");
      Subscription responder = requester.respond(bounded, lookup, request -> "ok");
      try {
        assertThat(requester.request(bounded, lookup, letter(lookup, "r-1"), requestTimeout()))
            .extracting(MailMessage::body)
            .isEqualTo("ok");
        Duration wait = unanswering.bound().plusSeconds(2);
        unanswering.stopAnswering();
        long took;
        try {
          long started = System.nanoTime();
          // The request's post meets the publish bound, or it is stored and its reply cannot
          // come: either way a coded, retriable error, never a hang.
          assertThatThrownBy(() -> requester.request(bounded, lookup, letter(lookup, "r-2"), wait))
              .isInstanceOf(MailboxException.class)
              .satisfies(
                  e ->
                      assertThat(((MailboxException) e).errorCode())
                          .isIn(ErrorCode.PUBLISH_TIMEOUT, ErrorCode.REQUEST_TIMEOUT))
              .satisfies(e -> assertThat(((MailboxException) e).isRetriable()).isTrue());
          took = (System.nanoTime() - started) / 1_000_000;
        } finally {
          unanswering.answerAgain();
        }
        assertThat(took)
            .as("it failed within its bound and timeout, not long after")
            .isLessThan(wait.toMillis() + unanswering.bound().toMillis() + 5_000);
        Eventually.await(
            "requests are answered again once the broker answers",
            Duration.ofSeconds(60),
            () -> {
              try {
                return requester
                    .request(bounded, lookup, letter(lookup, "r-3"), requestTimeout())
                    .body()
                    .equals("ok");
              } catch (MailboxException stillDown) {
                return false;
              }
            });
      } finally {
        responder.unsubscribe();
      }
    }
  }

  @Test
  void withoutAResponderARequestTimesOutWithACodeNamingTheAddress() {
    MailAddress nobody = address("nobody-answers");
    Duration timeout = Duration.ofMillis(1_500);
    long started = System.nanoTime();

    assertThatThrownBy(() -> requests.request(provider, nobody, letter(nobody, "q-2"), timeout))
        .hasMessageStartingWith(ErrorCode.REQUEST_TIMEOUT.code())
        .hasMessageContaining(nobody.toString())
        .hasMessageContaining("1500 ms")
        .satisfies(e -> assertThat(((MailboxException) e).isRetriable()).isTrue());
    long took = (System.nanoTime() - started) / 1_000_000;
    assertThat(took).isBetween(1_400L, 1_500L + 10_000L);
  }

  @Test
  void aFailingResponderIsARemoteFailureWithItsErrorNeverTheRequestBody() {
    MailAddress stock = address("stock");
    respond(
        stock,
        request -> {
          throw new IllegalStateException("no stock left for item 7");
        });

    assertThatThrownBy(
            () ->
                requests.request(
                    provider,
                    stock,
                    MailMessage.to(stock).id("q-3").body("{\"secret\":\"" + SECRET + "\"}").build(),
                    requestTimeout()))
        .hasMessageStartingWith(ErrorCode.REMOTE_HANDLER_FAILED.code())
        .hasMessageContaining(stock.toString())
        .hasMessageContaining("java.lang.IllegalStateException: no stock left for item 7")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(SECRET));
  }

  @Test
  void aForgedReplyInboxOnAnotherAddressIsNeverWrittenTo() {
    MailAddress echo = address("echo");
    MailAddress victim = address("victim");
    List<MailMessage> asked = new CopyOnWriteArrayList<>();
    respond(
        echo,
        request -> {
          asked.add(request);
          return "echo";
        });

    provider.post(
        MailMessage.to(RequestReply.requestsOf(echo))
            .id("forged")
            .body("{}")
            .meta(RequestReply.REPLY_TO, victim.toString())
            .meta(RequestReply.CORRELATION_ID, "c-1")
            .build());
    requests.request(provider, echo, letter(echo, "real"), requestTimeout()); // answered after it

    assertThat(provider.status(victim).unreadCount()).isZero();
    assertThat(fetchAll(victim)).isEmpty();
  }
}
