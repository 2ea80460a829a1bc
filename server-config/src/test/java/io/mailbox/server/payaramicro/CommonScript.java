package io.mailbox.server.payaramicro;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs one function of server-config/common.sh, the scripts' shared shell, in a bash of its own.
 */
final class CommonScript {
  private static final Path COMMON_SH =
      Path.of(System.getProperty("user.dir")).resolve("common.sh").toAbsolutePath();

  private CommonScript() {}

  /**
   * What {@code function} prints for {@code arguments}, with {@code environment} as the only
   * MAILBOX_ settings (the test JVM's own are removed); fails the test if it does not succeed.
   */
  static String run(String function, Map<String, String> environment, String... arguments)
      throws Exception {
    ProcessBuilder bash =
        new ProcessBuilder(
                concat(
                    List.of(
                        "bash",
                        "-c",
                        "set -euo pipefail; . \"$0\"; " + function + " \"$@\"",
                        COMMON_SH.toString()),
                    List.of(arguments)))
            .redirectErrorStream(true);
    bash.environment().keySet().removeIf(name -> name.startsWith("MAILBOX_"));
    bash.environment().putAll(environment);
    Process process = bash.start();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as(printed).isZero();
    return printed.strip();
  }

  private static List<String> concat(List<String> first, List<String> second) {
    return Stream.concat(first.stream(), second.stream()).toList();
  }
}
