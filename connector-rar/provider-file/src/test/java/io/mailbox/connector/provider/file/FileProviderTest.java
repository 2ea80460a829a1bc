package io.mailbox.connector.provider.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.Disposition;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.SystemHeaders;
import io.mailbox.connector.kernel.DeadLetterPolicy;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.spi.ExecutorScheduler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What is particular to a mail folder: files, durability, corruption, archival. */
class FileProviderTest {
  private static final MailAddress INBOX = MailAddress.parse("file:agent-a@crew/inbox");

  @TempDir Path root;
  private MailboxProvider provider;

  @BeforeEach
  void start() {
    provider =
        MailboxProvider.of(new FileProvider(root, Clock.systemUTC(), new ExecutorScheduler()));
    provider.start();
  }

  private MailMessage post(String id) {
    return provider.post(
        MailMessage.to(INBOX)
            .from("file:mayor@crew")
            .id(id)
            .body("{\"task\":\"" + id + "\"}")
            .build());
  }

  private List<Path> jsonFiles(Path folder) throws Exception {
    try (Stream<Path> files = Files.list(folder)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".json")).sorted().toList();
    }
  }

  @Test
  void eachMessageIsOneJsonFileInTheRecipientsFolderWithSortedKeys() throws Exception {
    MailMessage sent = post("m1");

    List<Path> files = jsonFiles(root.resolve("crew/agent-a/inbox"));
    assertThat(files).hasSize(1);
    String name = files.get(0).getFileName().toString();
    assertThat(name).matches("\\d{13}-\\d{6}-" + sent.sendId().orElseThrow() + "\\.json");
    String json = Files.readString(files.get(0));
    assertThat(json).startsWith("{\"body\":").contains("\"read\":false");
    assertThat(json.indexOf("\"body\"")).isLessThan(json.indexOf("\"from\""));
    assertThat(json.indexOf("\"id\"")).isLessThan(json.indexOf("\"to\""));
    try (Stream<Path> all = Files.list(root.resolve("crew/agent-a/inbox"))) {
      assertThat(all.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(".tmp-"));
    }
  }

  @Test
  void aListingSortsByTimeSoFetchIsFirstInFirstOut() {
    for (int i = 0; i < 5; i++) {
      post("m" + i);
    }

    List<String> ids =
        provider.fetch(INBOX, FetchOptions.autoAck().limit(10)).stream()
            .map(d -> d.message().id())
            .toList();

    assertThat(ids).containsExactly("m0", "m1", "m2", "m3", "m4");
  }

  @Test
  void aHandledMessageStaysAsAReadFile() throws Exception {
    post("m1");

    provider.fetch(INBOX, FetchOptions.autoAck());

    assertThat(jsonFiles(root.resolve("crew/agent-a/inbox")))
        .singleElement()
        .satisfies(
            file -> {
              try {
                assertThat(Files.readString(file)).contains("\"read\":true");
              } catch (java.io.IOException e) {
                throw new AssertionError(e);
              }
            });
    assertThat(provider.status(INBOX).extensions()).containsEntry("file.readCount", 1L);
  }

  @Test
  void unreadMailAndItsRoundSurviveARestartOfTheProvider() {
    post("m1");
    Delivery leased = provider.fetch(INBOX, FetchOptions.leased(Duration.ofMinutes(5))).get(0);
    assertThat(leased.message().header(SystemHeaders.ROUND)).contains("1");

    provider.stop(false);
    MailboxProvider restarted =
        MailboxProvider.of(new FileProvider(root, Clock.systemUTC(), new ExecutorScheduler()));
    restarted.start();

    Delivery again = restarted.fetch(INBOX, FetchOptions.leased()).get(0);
    assertThat(again.message().id()).isEqualTo("m1");
    assertThat(again.message().header(SystemHeaders.ROUND))
        .as("the round went to disk")
        .contains("2");
    assertThat(again.ack()).isTrue();
  }

  @Test
  void aCorruptFileIsSkippedNotFatalAndCounted() throws Exception {
    post("good-1");
    Files.writeString(
        root.resolve("crew/agent-a/inbox/0000000000001-000000-broken.json"), "{not json");
    post("good-2");

    List<String> ids =
        provider.fetch(INBOX, FetchOptions.autoAck().limit(10)).stream()
            .map(d -> d.message().id())
            .toList();

    assertThat(ids).containsExactly("good-1", "good-2");
    assertThat(provider.status(INBOX).extensions()).containsEntry("file.corruptCount", 1L);
  }

  @Test
  void aFileDroppedByAnotherToolIsPickedUp() throws Exception {
    MailMessage foreign =
        MailMessage.to(INBOX)
            .id("from-a-script")
            .body("hello")
            .header(SystemHeaders.SEND_ID, "external-1")
            .build();
    MessageFile.writeAtomically(
        root.resolve("crew/agent-a/inbox/0000000000002-000000-external-1.json"),
        MessageFile.serialize(foreign, false));

    assertThat(provider.fetch(INBOX, FetchOptions.autoAck()))
        .extracting(d -> d.message().id())
        .containsExactly("from-a-script");
  }

  @Test
  void concurrentWritersNeverClash() throws Exception {
    ExecutorService writers = Executors.newFixedThreadPool(4);
    List<Future<?>> done = new ArrayList<>();
    for (int w = 0; w < 4; w++) {
      int writer = w;
      done.add(
          writers.submit(
              () -> {
                for (int i = 0; i < 50; i++) {
                  post("w" + writer + "-" + i);
                }
                return null;
              }));
    }
    for (Future<?> f : done) {
      f.get(30, TimeUnit.SECONDS);
    }
    writers.shutdown();

    assertThat(jsonFiles(root.resolve("crew/agent-a/inbox"))).hasSize(200);
    assertThat(provider.status(INBOX).unreadCount()).isEqualTo(200);
  }

  @Test
  void readMailOlderThanTheCutoffIsArchivedByRenameAndUnreadMailStays() throws Exception {
    Clock later = Clock.offset(Clock.systemUTC(), Duration.ofDays(2));
    post("old-read");
    post("old-unread");
    provider.fetch(INBOX, FetchOptions.autoAck());
    MailboxProvider twoDaysLater =
        MailboxProvider.of(new FileProvider(root, later, new ExecutorScheduler()));
    twoDaysLater.start();

    assertThat(((FileProvider) twoDaysLater.transport()).archive(INBOX, Duration.ofDays(1)))
        .isEqualTo(1);

    assertThat(jsonFiles(root.resolve("crew/agent-a/inbox/#archive"))).hasSize(1);
    assertThat(twoDaysLater.status(INBOX).unreadCount()).isEqualTo(1);
  }

  @Test
  void aRecordGivenUpAtTheEndOfTheChainIsParkedInItsOwnFolder() throws Exception {
    provider.enableDeadLetterQueue(DeadLetterPolicy.defaults());
    MailAddress dlq = MailAddress.parse("file:agent-a@crew/inbox_dlq");
    post("poison");
    provider.fetch(INBOX, FetchOptions.leased()).get(0).settle(Disposition.DISCARD);

    provider.fetch(dlq, FetchOptions.leased()).get(0).settle(Disposition.DISCARD);

    assertThat(jsonFiles(root.resolve("crew/agent-a/inbox_dlq/#parked"))).hasSize(1);
    assertThat(provider.status(dlq).unreadCount()).isZero();
    assertThat(provider.peekParked(dlq, 10)).extracting(MailMessage::id).containsExactly("poison");
    assertThat(provider.purgeParked(dlq, null)).isEqualTo(1);
  }

  @Test
  void enumerateListsEveryMailboxFolder() {
    post("a");
    provider.post(MailMessage.to("file:agent-b@crew").body("{}").build());

    assertThat(provider.enumerate().orElseThrow())
        .extracting(s -> s.address().toString())
        .containsExactly("file://agent-a@crew/inbox", "file://agent-b@crew");
  }

  @Test
  void fixedClockKeepsNamesUniqueAndOrdered() {
    MailboxProvider frozen =
        MailboxProvider.of(
            new FileProvider(
                root.resolve("frozen"),
                Clock.fixed(Instant.EPOCH, ZoneOffset.UTC),
                new ExecutorScheduler()));
    frozen.start();
    for (int i = 0; i < 3; i++) {
      frozen.post(MailMessage.to(INBOX).id("f" + i).body("{}").build());
    }

    assertThat(frozen.fetch(INBOX, FetchOptions.autoAck().limit(5)))
        .extracting(d -> d.message().id())
        .containsExactly("f0", "f1", "f2");
  }

  @Test
  void aReaderPollingDuringAThousandConcurrentWritesNeverSeesAPartialFile() throws Exception {
    Path inbox = root.resolve("crew/agent-a/inbox");
    java.util.concurrent.atomic.AtomicBoolean writing =
        new java.util.concurrent.atomic.AtomicBoolean(true);
    java.util.concurrent.atomic.AtomicInteger partial =
        new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger reads =
        new java.util.concurrent.atomic.AtomicInteger();
    post("first"); // the folder exists before the reader starts
    Thread reader =
        new Thread(
            () -> {
              while (writing.get()) {
                try (Stream<Path> files = Files.list(inbox)) {
                  for (Path file :
                      files.filter(f -> f.getFileName().toString().endsWith(".json")).toList()) {
                    try {
                      MessageFile.read(file);
                      reads.incrementAndGet();
                    } catch (java.nio.file.NoSuchFileException gone) {
                      // renamed away meanwhile: not a partial read
                    } catch (java.io.IOException e) {
                      partial.incrementAndGet();
                    }
                  }
                } catch (java.io.IOException e) {
                  partial.incrementAndGet();
                }
              }
            });
    reader.start();
    ExecutorService writers = Executors.newFixedThreadPool(4);
    List<Future<?>> done = new ArrayList<>();
    for (int w = 0; w < 4; w++) {
      int writer = w;
      done.add(
          writers.submit(
              () -> {
                for (int i = 0; i < 250; i++) {
                  provider.post(
                      MailMessage.to(INBOX)
                          .id("c" + writer + "-" + i)
                          .body("x".repeat(2_000))
                          .build());
                }
                return null;
              }));
    }
    for (Future<?> f : done) {
      f.get(60, TimeUnit.SECONDS);
    }
    writers.shutdown();
    writing.set(false);
    reader.join();

    assertThat(partial.get()).as("partial or unreadable files seen").isZero();
    assertThat(reads.get()).as("the reader really read while writers wrote").isPositive();
    assertThat(jsonFiles(inbox)).hasSize(1_001);
  }
}
