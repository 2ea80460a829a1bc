package io.mailbox.connector.provider.redis;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.kernel.MailboxSubscriber;
import io.mailbox.connector.spi.ExecutorScheduler;
import java.time.Clock;
import java.time.Duration;

/**
 * A consumer in a process of its own, for {@link RedisCrashIT}: it subscribes to an address, prints
 * {@code GOT <id>} for each message and never finishes handling one, so everything it read stays
 * pending with its consumer until the test kills it (SIGKILL).
 *
 * <p>Arguments: the Redis URL, the key prefix, the lease in ms, the address.
 */
public final class StuckConsumerProcess {
  private StuckConsumerProcess() {}

  public static void main(String[] args) throws Exception {
    RedisSettings settings =
        RedisSettings.defaults()
            .withUrl(args[0])
            .withKeyPrefix(args[1])
            .withLease(Duration.ofMillis(Long.parseLong(args[2])));
    MailboxProvider provider =
        MailboxProvider.of(new RedisProvider(settings, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
    provider.subscribe(
        MailAddress.parse(args[3]),
        MailboxSubscriber.of(
            message -> {
              System.out.println("GOT " + message.id());
              System.out.flush();
              try {
                Thread.sleep(Long.MAX_VALUE);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }));
    System.out.println("READY");
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
