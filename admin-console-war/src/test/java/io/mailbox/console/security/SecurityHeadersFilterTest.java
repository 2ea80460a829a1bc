package io.mailbox.console.security;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.FilterChain;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SecurityHeadersFilterTest {
  @Test
  void everyResponseGetsTheBrowserSecurityHeadersBeforeTheChainRuns() throws Exception {
    Map<String, String> headers = new HashMap<>();
    HttpServletResponse response =
        proxy(
            HttpServletResponse.class,
            (name, args) -> {
              if (name.equals("setHeader")) {
                headers.put((String) args[0], (String) args[1]);
              }
              return null;
            });
    Map<String, String> seenByTheChain = new HashMap<>();
    FilterChain chain = (request, answered) -> seenByTheChain.putAll(headers);

    new SecurityHeadersFilter()
        .doFilter(proxy(HttpServletRequest.class, (name, args) -> null), response, chain);

    assertThat(seenByTheChain)
        .containsEntry("X-Content-Type-Options", "nosniff")
        .containsEntry("Referrer-Policy", "no-referrer")
        .containsEntry("X-Frame-Options", "DENY")
        .containsKey("Content-Security-Policy");
    assertThat(seenByTheChain.get("Content-Security-Policy"))
        .contains("default-src 'self'")
        .contains("frame-ancestors 'none'")
        .contains("object-src 'none'");
  }

  interface Answer {
    Object answer(String method, Object[] args);
  }

  @SuppressWarnings("unchecked")
  private static <T> T proxy(Class<T> type, Answer answer) {
    return (T)
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (self, method, args) -> answer.answer(method.getName(), args));
  }
}
