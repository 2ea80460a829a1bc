package io.mailbox.console.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.ws.rs.container.ContainerRequestContext;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class RequestBodyLimitTest {
  private final RequestBodyLimit limit = new RequestBodyLimit(1024);
  private final AtomicReference<InputStream> entity = new AtomicReference<>();

  private ContainerRequestContext request(int contentLength, String body) {
    entity.set(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
    return (ContainerRequestContext)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {ContainerRequestContext.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "getLength" -> contentLength;
                  case "hasEntity" -> true;
                  case "getEntityStream" -> entity.get();
                  case "setEntityStream" -> {
                    entity.set((InputStream) args[0]);
                    yield null;
                  }
                  default -> null;
                });
  }

  private static void isTooLarge(Throwable thrown) {
    assertThat(thrown).isInstanceOf(ApiRefusal.class);
    assertThat(((ApiRefusal) thrown).status()).isEqualTo(413);
    assertThat(((ApiRefusal) thrown).code()).isEqualTo(ApiRefusal.BODY_TOO_LARGE);
  }

  @Test
  void aDeclaredLengthOverTheLimitIsRefusedBeforeAnythingIsRead() {
    assertThatThrownBy(() -> limit.filter(request(1025, "{}")))
        .satisfies(RequestBodyLimitTest::isTooLarge);
  }

  @Test
  void anUndeclaredBodyIsCutOffAtTheLimitAsA413NotAMalformedBody() {
    String ids = "{\"ids\": [" + "\"0123456789\",".repeat(200) + "\"x\"], \"retry\": true}";
    limit.filter(request(-1, ids));

    assertThatThrownBy(() -> Requests.object(entity.get(), "{...}"))
        .satisfies(RequestBodyLimitTest::isTooLarge);
  }

  @Test
  void aBodyWithinTheLimitIsReadWhole() {
    limit.filter(request(-1, "{\"ids\": [\"a\"], \"retry\": true}"));

    assertThat(Requests.object(entity.get(), "{...}")).containsKey("retry");
  }
}
