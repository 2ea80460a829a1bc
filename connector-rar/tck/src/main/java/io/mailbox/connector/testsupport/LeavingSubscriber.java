package io.mailbox.connector.testsupport;

import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.kernel.MailboxSubscriber;
import io.mailbox.connector.kernel.Subscription;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * For the tests of a reader that reads ahead: a backlog, and a subscriber slow enough (1 ms a
 * message) that reads are out while it works, which unsubscribes itself — from another thread, as
 * an application would — after handling a given number of messages, in the middle of a batch.
 */
public final class LeavingSubscriber {
  private LeavingSubscriber() {}

  /** Posts {@code count} messages with ids {@code job-0} ... in one {@code postAll}. */
  public static void postBacklog(MailboxProvider provider, MailAddress address, int count) {
    List<MailMessage> backlog = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      backlog.add(MailMessage.to(address).id("job-" + i).body("{}").build());
    }
    provider.postAll(backlog);
  }

  /**
   * Subscribes a subscriber that adds each id to {@code handled} and leaves after {@code
   * leaveAfter} messages; returns how many it has handled.
   */
  public static AtomicInteger subscribe(
      MailboxProvider provider, MailAddress address, int leaveAfter, Set<String> handled) {
    AtomicInteger count = new AtomicInteger();
    AtomicReference<Subscription> subscription = new AtomicReference<>();
    subscription.set(
        provider.subscribe(
            address,
            MailboxSubscriber.of(
                message -> {
                  handled.add(message.id());
                  pause();
                  if (count.incrementAndGet() == leaveAfter) {
                    new Thread(() -> subscription.get().unsubscribe()).start();
                  }
                })));
    return count;
  }

  private static void pause() {
    try {
      Thread.sleep(1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
