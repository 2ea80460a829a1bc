package io.mailbox.ejb.inbox;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.ejb.event.IntegrationEventDefinition;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.json.JsonValue;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/** Runs {@link Inboxed} methods inside the consumer inbox (see there for the configuration). */
@Inboxed
@Interceptor
@Priority(Interceptor.Priority.APPLICATION)
public class InboxInterceptor {
  private static final Map<String, IntegrationEventDefinition<JsonValue>> DEFINITIONS =
      new ConcurrentHashMap<>();

  // @Inject, not @EJB: an @EJB field is resolved through java:comp/env, which a channel's pool
  // thread has no access to when the channel connector sits in an EAR's lib/ (Payara Server).
  @Inject Inbox inbox;

  @AroundInvoke
  Object aroundIncoming(InvocationContext context) throws Exception {
    Incoming incoming = context.getMethod().getAnnotation(Incoming.class);
    if (incoming == null || context.getParameters().length != 1) {
      throw new MailboxException(
          ErrorCode.INVALID_ACTIVATION,
          "@Inboxed needs an @Incoming method with one parameter (the envelope): "
              + context.getMethod());
    }
    String channel = incoming.value();
    Config config = ConfigProvider.getConfig();
    String consumer = required(config, channel, "inbox.consumer");
    IntegrationEventDefinition<JsonValue> definition =
        DEFINITIONS.computeIfAbsent(
            required(config, channel, "inbox.topic"), InboxInterceptor::define);
    Object argument = context.getParameters()[0];
    String envelope =
        argument instanceof Message<?> message ? (String) message.getPayload() : (String) argument;

    AtomicReference<Object> result = new AtomicReference<>();
    InboxOutcome outcome =
        inbox.process(
            consumer,
            definition,
            envelope,
            sourceAddress(config, channel),
            (data, event) -> result.set(context.proceed()));
    if (outcome == InboxOutcome.PROCESSED) {
      return result.get();
    }
    // Skipped: acknowledge a Message parameter the method never saw; "done" for a stage.
    if (argument instanceof Message<?> message) {
      return message.ack();
    }
    return context.getMethod().getReturnType() == void.class
        ? null
        : CompletableFuture.completedFuture(null);
  }

  /**
   * The address a {@code mailbox} channel receives from (recorded on the marker, so a parked
   * delivery's release → retry goes back there); {@code null} for another connector.
   */
  private static String sourceAddress(Config config, String channel) {
    String prefix = "mp.messaging.incoming." + channel + ".";
    if (!"mailbox".equals(config.getOptionalValue(prefix + "connector", String.class).orElse(""))) {
      return null;
    }
    return config.getOptionalValue(prefix + "address", String.class).orElse(null);
  }

  private static String required(Config config, String channel, String key) {
    return config
        .getOptionalValue("mp.messaging.incoming." + channel + "." + key, String.class)
        .orElseThrow(
            () ->
                new MailboxException(
                    ErrorCode.INVALID_ACTIVATION,
                    "@Inboxed channel "
                        + channel
                        + " needs mp.messaging.incoming."
                        + channel
                        + "."
                        + key));
  }

  private static IntegrationEventDefinition<JsonValue> define(String topic) {
    io.mailbox.connector.api.VersionedTopic versioned =
        io.mailbox.connector.api.VersionedTopic.parse(topic, "inbox.topic");
    return IntegrationEventDefinition.define(
        versioned.type(), versioned.version(), topic, data -> data);
  }
}
