package io.mailbox.ejb.operations;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.MailboxConnection;
import io.mailbox.connector.api.MailboxConnectionFactory;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.SessionContext;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.Proxy;
import java.security.Principal;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class OperationsRolesTest {
  private static final List<String> MAILBOX_CHANGES =
      List.of("recover", "purge", "replay", "purgeParked");

  @Test
  void theFacadesLetOnlyViewersAndOperatorsInWhoeverCalls() {
    for (Class<?> facade : List.of(MailboxOperations.class, OutboxOperations.class)) {
      assertThat(facade.getAnnotation(RolesAllowed.class))
          .as(facade.getSimpleName())
          .isNotNull()
          .extracting(RolesAllowed::value)
          .satisfies(
              roles -> assertThat(roles).containsOnly(CallerRoles.VIEWER, CallerRoles.OPERATOR));
    }
  }

  @Test
  void everyChangeNeedsTheOperatorRole() throws Exception {
    for (Method method : MailboxOperations.class.getDeclaredMethods()) {
      if (MAILBOX_CHANGES.contains(method.getName())) {
        assertThat(method.getAnnotation(RolesAllowed.class).value())
            .as(method.getName())
            .containsExactly(CallerRoles.OPERATOR);
      }
    }
    Method releaseOutbox =
        OutboxOperations.class.getMethod("releaseOutbox", List.class, boolean.class);
    assertThat(releaseOutbox.getAnnotation(RolesAllowed.class).value())
        .containsExactly(CallerRoles.OPERATOR);
    for (String release : List.of("releaseInbox", "releaseParked")) {
      Method method =
          Arrays.stream(OutboxOperations.class.getMethods())
              .filter(m -> m.getName().equals(release))
              .findFirst()
              .orElseThrow();
      assertThat(method.getAnnotation(RolesAllowed.class).value())
          .as(release)
          .containsExactly(CallerRoles.OPERATOR);
    }
  }

  @Test
  void noChangeTakesTheActorFromItsCaller() {
    for (Method method :
        java.util.stream.Stream.concat(
                Arrays.stream(MailboxOperations.class.getDeclaredMethods()),
                Arrays.stream(OutboxOperations.class.getDeclaredMethods()))
            .toList()) {
      if (Modifier.isPublic(method.getModifiers())) {
        assertThat(Arrays.stream(method.getParameters()).map(Parameter::getName))
            .as(method.getName())
            .doesNotContain("actor");
      }
    }
  }

  @Test
  void aPurgeIsAuditedWithTheCallerTheContainerAuthenticated() throws Exception {
    MailboxOperations operations = new MailboxOperations();
    AuditedChangeTest.RecordingAuditLog audit = new AuditedChangeTest.RecordingAuditLog();
    Principal caller = () -> "ops-from-the-container";
    set(operations, "context", fake(SessionContext.class, "getCallerPrincipal", caller));
    set(operations, "audit", audit);
    MailboxConnection connection =
        (MailboxConnection)
            Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {MailboxConnection.class},
                (proxy, method, args) -> method.getName().equals("removeQueued") ? 3 : null);
    set(
        operations,
        "connections",
        fake(MailboxConnectionFactory.class, "getConnection", connection));

    assertThat(operations.purge("jdbc:orders@shop/placed")).isEqualTo(3);

    assertThat(audit.events)
        .containsExactly(
            "begin ops-from-the-container address.purge jdbc:orders@shop/placed",
            "complete entry-1 3 SUCCEEDED");
  }

  private static <T> T fake(Class<T> type, String method, Object answer) {
    return type.cast(
        Proxy.newProxyInstance(
            OperationsRolesTest.class.getClassLoader(),
            new Class<?>[] {type},
            (proxy, called, args) -> called.getName().equals(method) ? answer : null));
  }

  private static void set(Object target, String name, Object value) throws Exception {
    Field field = target.getClass().getDeclaredField(name);
    field.setAccessible(true);
    field.set(target, value);
  }
}
