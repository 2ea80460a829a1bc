package io.mailbox.examples.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import io.mailbox.connector.spi.ProviderFactory;
import io.mailbox.connector.spi.ProviderSettings;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** The adapter's way in: found through META-INF/services, configured from providerSettings. */
class TinyProviderFactoryTest {

  @Test
  void theAdapterFindsTheFactoryThroughServiceLoader() {
    assertThat(ServiceLoader.load(ProviderFactory.class).stream().map(ServiceLoader.Provider::type))
        .contains(TinyProviderFactory.class);
  }

  @Test
  void itsSettingIsReadCheckedAndUsed() {
    TinyProviderFactory factory = new TinyProviderFactory();
    Map<String, String> configured = Map.of("tinyMaxQueued", "2");

    Integer maxQueued = factory.configure(new ProviderSettings(configured::get));
    MailboxProvider tiny = MailboxProvider.of(factory.create(maxQueued, new ExecutorScheduler()));
    tiny.start();
    try {
      tiny.post(MailMessage.to("tiny:a@b/c").body("1").build());
      tiny.post(MailMessage.to("tiny:a@b/c").body("2").build());
      assertThatThrownBy(() -> tiny.post(MailMessage.to("tiny:a@b/c").body("3").build()))
          .hasMessageStartingWith("MBX-2003")
          .hasMessageContaining("tinyMaxQueued");
    } finally {
      tiny.stop(true);
    }
    assertThatThrownBy(
            () -> factory.configure(new ProviderSettings(Map.of("tinyMaxQueued", "0")::get)))
        .hasMessageStartingWith("MBX-1008")
        .hasMessageContaining("tinyMaxQueued");
  }
}
