package io.mailbox.ejb.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import io.mailbox.connector.api.SystemHeaders;
import jakarta.ejb.SessionContext;
import java.lang.reflect.Field;
import java.lang.reflect.Proxy;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A replay posts the record back, then removes it. Where the dead-letter address's provider cannot
 * remove one record (a kafka: dead-letter topic), the record would stay and a second replay would
 * post it again: the replay is refused before anything is read or posted. A record posted back that
 * could not be removed (in flight, or taken meanwhile) is said so, never counted as replayed.
 */
class DeadLetterReplayRefusalTest {
  private static final String DEAD = "nats:billing@shop/invoices_dlq";
  private final List<String> calls = new ArrayList<>();
  private int removable = 1; // what removeQueued answers
  private final AuditedChangeTest.RecordingAuditLog audit =
      new AuditedChangeTest.RecordingAuditLog();

  @Test
  void aProviderThatCannotRemoveOneRecordIsRefusedBeforeAnythingIsPosted() throws Exception {
    MailboxOperations operations = operations(false);

    assertThatThrownBy(() -> operations.replay(DEAD, List.of("k1"), 10, done -> {}))
        .hasMessageStartingWith(ErrorCode.UNSUPPORTED_CAPABILITY.code())
        .hasMessageContaining("nothing was replayed");
    assertThat(calls).containsExactly("can remove");
    assertThat(audit.events).last().asString().endsWith("FAILED");
    assertThat(operations.canReplay(DEAD)).isFalse();
  }

  @Test
  void whereOneRecordCanBeRemovedItIsPostedBackThenRemoved() throws Exception {
    MailboxOperations operations = operations(true);

    MailboxOperations.ReplayResult result = operations.replay(DEAD, List.of("k1"), 10, done -> {});

    assertThat(result.replayed()).isEqualTo(1);
    assertThat(calls).containsExactly("can remove", "peek", "post", "removeQueued k1");
    assertThat(operations.canReplay(DEAD)).isTrue();
  }

  @Test
  void aRecordPostedBackButNotRemovedIsSaidSoAndTheReplayIsNotClean() throws Exception {
    MailboxOperations operations = operations(true);
    removable = 0; // in flight at the dead-letter address, or taken meanwhile

    MailboxOperations.ReplayResult result = operations.replay(DEAD, List.of("k1"), 10, done -> {});

    assertThat(result.replayed()).isZero();
    assertThat(result.notRemoved()).isEqualTo(1);
    assertThat(result.clean()).isFalse();
    assertThat(calls).containsExactly("can remove", "peek", "post", "removeQueued k1");
    assertThat(audit.events).last().asString().endsWith("FAILED");
  }

  private MailboxOperations operations(boolean canRemove) throws Exception {
    MailMessage record =
        MailMessage.to(DEAD)
            .id("invoice-7")
            .body("{}")
            .header(SystemHeaders.SEND_ID, "k1")
            .header(SystemHeaders.DEAD_LETTER_TOPIC, "nats://billing@shop/invoices")
            .build();
    MailboxConnection connection =
        (MailboxConnection)
            Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {MailboxConnection.class},
                (proxy, method, args) ->
                    switch (method.getName()) {
                      case "can" -> {
                        calls.add("can " + args[0]);
                        yield canRemove;
                      }
                      case "peek" -> {
                        calls.add("peek");
                        yield List.of(record);
                      }
                      case "post" -> {
                        calls.add("post");
                        yield null;
                      }
                      case "removeQueued" -> {
                        calls.add("removeQueued " + args[1]);
                        yield removable;
                      }
                      default -> null;
                    });
    MailboxOperations operations = new MailboxOperations();
    Principal caller = () -> "ops";
    set(operations, "context", fake(SessionContext.class, "getCallerPrincipal", caller));
    set(operations, "audit", audit);
    set(
        operations,
        "connections",
        fake(MailboxConnectionFactory.class, "getConnection", connection));
    return operations;
  }

  private static <T> T fake(Class<T> type, String method, Object answer) {
    return type.cast(
        Proxy.newProxyInstance(
            DeadLetterReplayRefusalTest.class.getClassLoader(),
            new Class<?>[] {type},
            (proxy, called, args) -> called.getName().equals(method) ? answer : null));
  }

  private static void set(Object target, String name, Object value) throws Exception {
    Field field = MailboxOperations.class.getDeclaredField(name);
    field.setAccessible(true);
    field.set(target, value);
  }
}
