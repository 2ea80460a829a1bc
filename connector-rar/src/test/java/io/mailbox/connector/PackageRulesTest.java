package io.mailbox.connector;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layers of the adapter, checked on its sources: {@code api} (what applications compile
 * against) depends on nothing of ours; {@code spi} (what a transport implements) on {@code api};
 * {@code kernel} (the rules) on {@code spi} and {@code api}; providers on {@code spi} and {@code
 * api}; {@code jca} (the adapter) on {@code kernel}, {@code spi} and {@code api}.
 *
 * <p>{@link #KNOWN} lists, class by class, edges that break a rule and are tolerated; it is empty
 * since the narrow SPI, and may only shrink: a new edge fails the build, and so does a listed edge
 * that is gone.
 */
class PackageRulesTest {
  /** The connector's modules: the core (api, spi, kernel, jca) and one module per provider. */
  private static final List<Path> MODULES =
      List.of(
          Path.of("core"),
          Path.of("provider-mem"),
          Path.of("provider-file"),
          Path.of("provider-jdbc"),
          Path.of("provider-amqp"));

  private static final Path PACKAGES = Path.of("src/main/java/io/mailbox/connector");

  private static final Map<String, Set<String>> ALLOWED =
      Map.of(
          "api", Set.of(),
          "spi", Set.of("api"),
          "kernel", Set.of("spi", "api"),
          "provider", Set.of("spi", "api"),
          "jca", Set.of("kernel", "spi", "api"));

  /** Edges that break a rule and are tolerated for now: none left. New ones fail the build. */
  private static final Set<String> KNOWN = Set.of();

  private static final Pattern REFERENCE =
      Pattern.compile("\\bio\\.mailbox\\.connector\\.([a-z]+)((?:\\.[a-z]+)*)\\.([A-Z]\\w*)");

  @Test
  void everyLayerDependsOnlyOnTheLayersBelowIt() throws IOException {
    Set<String> breaking = new TreeSet<>();
    for (Path sources : sourceRoots()) {
      try (Stream<Path> files = Files.walk(sources)) {
        for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
          String layer = sources.relativize(file).getName(0).toString();
          String source = sources.relativize(file).toString().replaceAll("\\.java$", "");
          Matcher reference = REFERENCE.matcher(Files.readString(file));
          while (reference.find()) {
            String target = reference.group(1);
            if (!target.equals(layer) && !ALLOWED.get(layer).contains(target)) {
              breaking.add(
                  source + " -> " + target + reference.group(2) + "." + reference.group(3));
            }
          }
        }
      }
    }

    assertThat(breaking)
        .as("edges that break a layer rule and are not known (fix them, never list them)")
        .isSubsetOf(KNOWN);
    assertThat(KNOWN)
        .as("known edges that are gone: delete them from KNOWN, the list only shrinks")
        .isSubsetOf(breaking);
  }

  @Test
  void everyTopLevelPackageHasARule() throws IOException {
    for (Path sources : sourceRoots()) {
      try (Stream<Path> entries = Files.list(sources)) {
        assertThat(entries.filter(Files::isDirectory).map(p -> p.getFileName().toString()))
            .allMatch(ALLOWED::containsKey);
      }
    }
  }

  @Test
  void aProviderModuleHoldsItsProviderAndNothingElse() throws IOException {
    for (Path module : MODULES.subList(1, MODULES.size())) {
      try (Stream<Path> entries = Files.list(module.resolve(PACKAGES))) {
        assertThat(entries.map(p -> p.getFileName().toString())).containsExactly("provider");
      }
    }
  }

  private static List<Path> sourceRoots() {
    return MODULES.stream().map(module -> module.resolve(PACKAGES)).toList();
  }
}
