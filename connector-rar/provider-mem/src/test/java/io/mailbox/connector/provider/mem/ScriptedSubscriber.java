package io.mailbox.connector.provider.mem;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.RetriableDeliveryException;
import io.mailbox.connector.kernel.MailboxSubscriber;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** A subscriber that records every attempt and answers as scripted. */
final class ScriptedSubscriber implements MailboxSubscriber {
  final List<MailMessage> attempts = new CopyOnWriteArrayList<>();
  private final Function<Integer, CompletionStage<Void>> answer;

  private ScriptedSubscriber(Function<Integer, CompletionStage<Void>> answer) {
    this.answer = answer;
  }

  static ScriptedSubscriber succeeding() {
    return new ScriptedSubscriber(n -> CompletableFuture.completedFuture(null));
  }

  static ScriptedSubscriber failingRetriably() {
    return new ScriptedSubscriber(
        n -> CompletableFuture.failedFuture(new RetriableDeliveryException("upstream down")));
  }

  static ScriptedSubscriber failingFatally() {
    return new ScriptedSubscriber(
        n -> CompletableFuture.failedFuture(new IllegalArgumentException("bad payload")));
  }

  /** Fails retriably on the first {@code failures} attempts, then succeeds. */
  static ScriptedSubscriber recoveringAfter(int failures) {
    return new ScriptedSubscriber(
        n ->
            n <= failures
                ? CompletableFuture.failedFuture(new RetriableDeliveryException("not yet"))
                : CompletableFuture.completedFuture(null));
  }

  /** Never answers until the test completes the returned future. */
  static ScriptedSubscriber hanging(CompletableFuture<Void> outcome) {
    return new ScriptedSubscriber(n -> outcome);
  }

  @Override
  public CompletionStage<Void> deliver(MailMessage message) {
    attempts.add(message);
    return answer.apply(attempts.size());
  }

  List<String> attemptHeaders() {
    return attempts.stream().map(m -> m.header("mbx-attempt").orElse("-")).toList();
  }
}
