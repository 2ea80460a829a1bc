package io.mailbox.server.payaramicro;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 19's XA crash test on the server as shipped: posts held by a JTA transaction on the
 * adapter's connection, beside a second XA resource, with the JVM stopped (halt, like {@code kill
 * -9}) in the middle of two-phase commit, then the start script run again on the same data folder.
 *
 * <ul>
 *   <li>stopped after the manager decided commit (in the other resource's commit, before ours): the
 *       adapter's branch is in doubt in its prepare log; at the next start the manager's recovery
 *       commits it and the post is delivered, once;
 *   <li>stopped before the decision (in the other resource's prepare, after ours voted yes): the
 *       branch is in doubt too; recovery rolls it back (presumed abort) and nothing is delivered.
 * </ul>
 *
 * Either way the prepare log is empty afterwards. The test war ({@code indoubt/}) is packed from
 * this module's test classes.
 */
class TransactionRecoveryIT {
  private static final Path REPOSITORY =
      Path.of(System.getProperty("mailbox.repository")).toAbsolutePath().normalize();
  private static final Path DATA =
      Path.of(System.getProperty("mailbox.testData"))
          .toAbsolutePath()
          .resolveSibling("recovery-data");
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private static Path war;
  private static long pid;

  @BeforeAll
  static void packTheTestWar() throws IOException {
    war = DATA.resolveSibling("indoubt.war");
    Path classes =
        Path.of(
            TransactionRecoveryIT.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .getPath());
    Path pkg = classes.resolve("io/mailbox/server/payaramicro/indoubt");
    try (OutputStream file = Files.newOutputStream(war);
        JarOutputStream jar = new JarOutputStream(file);
        Stream<Path> compiled = Files.list(pkg)) {
      for (Path cls : compiled.toList()) {
        jar.putNextEntry(new JarEntry("WEB-INF/classes/" + classes.relativize(cls)));
        jar.write(Files.readAllBytes(cls));
        jar.closeEntry();
      }
    }
  }

  @AfterAll
  static void stopTheServer() {
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
  }

  @Test
  void aBranchInDoubtAfterACrashIsCommittedOrRolledBackByTheNextStart() throws Exception {
    MicroStartScript.deleteRecursively(DATA);
    int port = MicroStartScript.freePort();
    String base = "http://localhost:" + port + "/indoubt/";
    Map<String, String> deploy = Map.of("MAILBOX_DEPLOY", war.toString());
    pid = MicroStartScript.start(REPOSITORY, port, DATA, deploy).pid();

    // Both resources commit: the post arrives, the log is left empty.
    assertThat(post(base, "plain", "nowhere", "first")).isEqualTo("committed");
    assertThat(waitingIds(base)).containsExactly("plain");
    assertThat(preparedEntries()).isEmpty();

    // The decision was commit; the JVM stops before our commit.
    String decided = "decided-" + UUID.randomUUID();
    post(base, decided, "commit", "first");
    awaitExit();
    List<Path> inDoubt = preparedEntries();
    assertThat(inDoubt)
        .as(
            "our branch in doubt after a crash past the decision (else the manager committed us"
                + " first and this case tests nothing)")
        .hasSize(1);

    Instant restart = Instant.now();
    pid = MicroStartScript.start(REPOSITORY, port, DATA, deploy).pid();
    Duration recovered = awaitIds(base, List.of("plain", decided), Duration.ofSeconds(90));
    System.out.printf(
        "TransactionRecoveryIT: committed branch delivered %s after the restart began (start included)%n",
        Duration.between(restart, Instant.now()));
    assertThat(recovered).as("the committed branch delivered after the restart").isNotNull();
    assertThat(preparedEntries()).as("the prepare log after recovery").isEmpty();

    // No decision yet: our branch voted yes, the other resource's prepare stops the JVM.
    String undecided = "undecided-" + UUID.randomUUID();
    post(base, undecided, "prepare", "last");
    awaitExit();
    assertThat(preparedEntries()).as("our branch in doubt before the decision").hasSize(1);
    pid = MicroStartScript.start(REPOSITORY, port, DATA, deploy).pid();
    awaitEmptyLog(Duration.ofSeconds(90));
    assertThat(waitingIds(base))
        .as("presumed abort: the undecided post is never delivered")
        .containsExactlyInAnyOrder("plain", decided);
    MicroStartScript.stop(pid, 60);
  }

  private static String post(String base, String id, String halt, String enlist) {
    try {
      return HTTP.send(
              HttpRequest.newBuilder(
                      URI.create(base + "?id=" + id + "&halt=" + halt + "&enlist=" + enlist))
                  .timeout(Duration.ofSeconds(30))
                  .POST(HttpRequest.BodyPublishers.noBody())
                  .build(),
              HttpResponse.BodyHandlers.ofString())
          .body();
    } catch (IOException | InterruptedException e) {
      return "no answer: " + e; // the JVM stopped mid-request, as asked
    }
  }

  private static List<String> waitingIds(String base) throws Exception {
    String body =
        HTTP.send(
                HttpRequest.newBuilder(URI.create(base)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    return body.isBlank() ? List.of() : List.of(body.split(","));
  }

  private static Duration awaitIds(String base, List<String> ids, Duration bound) throws Exception {
    Instant from = Instant.now();
    List<String> seen = List.of();
    while (Duration.between(from, Instant.now()).compareTo(bound) < 0) {
      seen = waitingIds(base);
      if (seen.size() >= ids.size()) {
        assertThat(seen).as("each post once").containsExactlyInAnyOrderElementsOf(ids);
        return Duration.between(from, Instant.now());
      }
      Thread.sleep(500);
    }
    System.out.println("TransactionRecoveryIT: waiting after " + bound + ": " + seen);
    return null;
  }

  private static void awaitEmptyLog(Duration bound) throws Exception {
    Instant from = Instant.now();
    while (!preparedEntries().isEmpty()
        && Duration.between(from, Instant.now()).compareTo(bound) < 0) {
      Thread.sleep(500);
    }
    assertThat(preparedEntries()).as("the prepare log after recovery").isEmpty();
  }

  private static void awaitExit() throws Exception {
    ProcessHandle.of(pid).ifPresent(p -> p.onExit().orTimeout(30, TimeUnit.SECONDS).join());
  }

  /** Entries of the adapter's prepare log ({@code <branch>.prepared} or {@code .committed}). */
  private static List<Path> preparedEntries() throws IOException {
    Path log = DATA.resolve("prepare-log");
    if (!Files.isDirectory(log)) {
      return List.of();
    }
    try (Stream<Path> entries = Files.list(log)) {
      return entries
          .filter(
              p ->
                  p.getFileName().toString().endsWith(".prepared")
                      || p.getFileName().toString().endsWith(".committed"))
          .toList();
    }
  }
}
