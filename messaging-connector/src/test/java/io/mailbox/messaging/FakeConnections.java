package io.mailbox.messaging;

import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/** Fakes the channel's unit tests share: a connection answering a few methods, its factory. */
final class FakeConnections {
  private FakeConnections() {}

  /**
   * A connection whose methods named in {@code answers} answer from their arguments; {@code close}
   * does nothing; anything else is refused, so a test notices what it did not expect.
   */
  static MailboxConnection connection(Map<String, Function<Object[], Object>> answers) {
    return (MailboxConnection)
        Proxy.newProxyInstance(
            MailboxConnection.class.getClassLoader(),
            new Class<?>[] {MailboxConnection.class},
            (proxy, method, args) -> {
              Function<Object[], Object> answer = answers.get(method.getName());
              if (answer != null) {
                return answer.apply(args);
              }
              if (method.getName().equals("close")) {
                return null;
              }
              throw new UnsupportedOperationException(method.getName());
            });
  }

  /** A factory handing out {@code connection}. */
  static MailboxConnectionFactory factory(MailboxConnection connection) {
    return new MailboxConnectionFactory() {
      @Override
      public MailboxConnection getConnection() {
        return connection;
      }

      @Override
      public void setReference(javax.naming.Reference reference) {}

      @Override
      public javax.naming.Reference getReference() {
        return null;
      }
    };
  }

  /** A subscriber told of its subscription and of each message; errors and completion ignored. */
  static Subscriber<Message<?>> subscriber(
      Consumer<Subscription> onSubscribe, Consumer<Message<?>> onNext) {
    return new Subscriber<>() {
      @Override
      public void onSubscribe(Subscription subscription) {
        onSubscribe.accept(subscription);
      }

      @Override
      public void onNext(Message<?> message) {
        onNext.accept(message);
      }

      @Override
      public void onError(Throwable failure) {}

      @Override
      public void onComplete() {}
    };
  }
}
