package io.mailbox.connector.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@link ErrorCode} is the one catalogue of {@code MBX-} codes: every code written as a string in
 * any module's main sources is declared there (and, outside the two modules that cannot depend on
 * the adapter, taken from there), every declared code is unique and documented.
 */
class ErrorCodeCatalogueTest {
  // This module is connector-rar/core: the repository is two levels up.
  private static final Path REPOSITORY = Path.of("../..").toAbsolutePath().normalize();

  /** Modules that deliberately do not depend on the adapter (no classes of ours on their path). */
  private static final Set<String> STANDALONE = Set.of("console-security", "root-war");

  // A code at the start of a Java string literal: "MBX-1234 ..." or \"MBX-1234\" inside JSON text.
  private static final Pattern LITERAL = Pattern.compile("\"MBX-(\\d{4})");

  private static final Set<String> DECLARED =
      Arrays.stream(ErrorCode.values()).map(ErrorCode::code).collect(Collectors.toSet());

  @Test
  void everyCodeIsDeclaredOnce() {
    assertThat(DECLARED).hasSize(ErrorCode.values().length);
    assertThat(DECLARED).allMatch(code -> code.matches("MBX-[1-5]\\d{3}"));
  }

  @Test
  void noModuleWritesACodeOfItsOwn() throws IOException {
    List<String> strays = new ArrayList<>();
    for (Path source : mainSources()) {
      String text = Files.readString(source);
      Matcher code = LITERAL.matcher(text);
      while (code.find()) {
        String found = "MBX-" + code.group(1);
        String where = REPOSITORY.relativize(source) + ": " + found;
        if (!DECLARED.contains(found)) {
          strays.add(where + " is not declared in ErrorCode");
        } else if (!source.endsWith("ErrorCode.java") && !standalone(source)) {
          strays.add(where + " is written out; use ErrorCode." + nameOf(found));
        }
      }
    }
    assertThat(strays).isEmpty();
  }

  @Test
  void everyDeclaredCodeIsDocumented() throws IOException {
    String docs =
        Files.readString(REPOSITORY.resolve("docs/configuration.md"))
            + Files.readString(REPOSITORY.resolve("docs/admin-api.md"));
    assertThat(DECLARED.stream().filter(code -> !docs.contains("`" + code + "`")).sorted())
        .as("codes missing from docs/configuration.md and docs/admin-api.md")
        .isEmpty();
  }

  private static String nameOf(String code) {
    return Arrays.stream(ErrorCode.values())
        .filter(e -> e.code().equals(code))
        .findFirst()
        .orElseThrow()
        .name();
  }

  private static boolean standalone(Path source) {
    return STANDALONE.contains(REPOSITORY.relativize(source).getName(0).toString());
  }

  private static List<Path> mainSources() throws IOException {
    try (Stream<Path> files = Files.walk(REPOSITORY)) {
      return files
          .filter(p -> p.toString().endsWith(".java"))
          .filter(p -> p.toString().contains("/src/main/java/"))
          .filter(
              p -> !p.toString().contains("/target/") && !p.toString().contains("/node_modules/"))
          .toList();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
