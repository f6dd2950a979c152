package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Enforces the module boundaries of docs/architecture.md by reading every module's main sources: core-api depends
 * on nothing of ours and nothing beyond the JDK, JSpecify and the SLF4J API; engines never depend on adapters,
 * benchmarks or samples; nothing depends on samples; library code never prints or exits.
 */
final class ModuleBoundariesTest {
  private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?([\\w.]+)", Pattern.MULTILINE);
  private static final List<String> ENGINES =
      List.of("admission", "scheduler-engine", "reconcile", "queueing", "autoscale", "storage-binding", "optimizer",
          "simulator");
  private static final List<String> LIBRARY =
      List.of("core-api", "observability", "admission", "scheduler-engine", "reconcile", "queueing", "autoscale",
          "storage-binding", "optimizer", "simulator", "adapters/kubernetes", "adapters/slurm", "cluster", "store-etcd");

  private static Path root() {
    return CliHarness.root();
  }

  private static List<String> violations(String module, java.util.function.Predicate<String> allowed) {
    Path src = root().resolve(module).resolve("src/main/java");
    List<String> out = new ArrayList<>();
    if (!Files.isDirectory(src)) {
      return out;
    }
    try (Stream<Path> files = Files.walk(src)) {
      for (Path f : files.filter(x -> x.toString().endsWith(".java")).toList()) {
        Matcher m = IMPORT.matcher(Files.readString(f));
        while (m.find()) {
          if (!allowed.test(m.group(1))) {
            out.add(src.relativize(f) + " imports " + m.group(1));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  @Test
  void coreApi_importsOnlyJdkJspecifySlf4jAndItself() {
    assertThat(violations("core-api", i -> i.startsWith("java.") || i.startsWith("org.jspecify.")
        || i.startsWith("org.slf4j.") || i.startsWith("io.fleetkit.api."))).isEmpty();
  }

  @Test
  void coreApiPom_declaresNoFleetKitOrThirdPartyRuntimeDependency() throws IOException {
    String pom = Files.readString(root().resolve("core-api/pom.xml"));
    Matcher m = Pattern.compile("<artifactId>([^<]+)</artifactId>\\s*(?:<version>[^<]*</version>\\s*)?"
        + "(?:<scope>([^<]+)</scope>)?").matcher(pom.substring(pom.indexOf("<dependencies>"), pom.indexOf("</dependencies>")));
    List<String> runtime = new ArrayList<>();
    while (m.find()) {
      if (m.group(2) == null || !m.group(2).equals("test")) {
        runtime.add(m.group(1));
      }
    }
    assertThat(runtime).allMatch(a -> a.equals("slf4j-api") || a.equals("jspecify"));
  }

  @Test
  void observability_importsOnlyCoreApiAndItsOptionalLibraries() {
    assertThat(violations("observability", i -> i.startsWith("java.") || i.startsWith("org.jspecify.")
        || i.startsWith("org.slf4j.") || i.startsWith("io.fleetkit.api.") || i.startsWith("io.fleetkit.observability.")
        || i.startsWith("io.micrometer.") || i.startsWith("io.prometheus.metrics.") // Micrometer's Prometheus model
        || i.startsWith("io.opentelemetry."))).isEmpty();
  }

  @Test
  void engines_neverImportAdaptersBenchmarksOrSamples() {
    for (String module : ENGINES) {
      assertThat(violations(module, i -> !i.startsWith("io.fleetkit.adapter") && !i.startsWith("io.fleetkit.samples")
          && !i.startsWith("io.fleetkit.benchmarks"))).as(module).isEmpty();
    }
  }

  @Test
  void library_neverImportsSamplesOrBenchmarks() {
    for (String module : List.of("core-api", "adapters/kubernetes", "adapters/slurm", "benchmarks")) {
      assertThat(violations(module, i -> !i.startsWith("io.fleetkit.samples"))).as(module).isEmpty();
    }
    for (String module : LIBRARY) {
      assertThat(violations(module, i -> !i.startsWith("io.fleetkit.benchmarks"))).as(module).isEmpty();
    }
  }

  @Test
  void library_neverPrintsOrExits() throws IOException {
    Pattern forbidden = Pattern.compile("System\\.(out|err)\\.|System\\.exit\\(|printStackTrace\\(");
    List<String> found = new ArrayList<>();
    for (String module : LIBRARY) {
      Path src = root().resolve(module).resolve("src/main/java");
      if (!Files.isDirectory(src)) {
        continue;
      }
      try (Stream<Path> files = Files.walk(src)) {
        for (Path f : files.filter(x -> x.toString().endsWith(".java")).toList()) {
          if (forbidden.matcher(Files.readString(f)).find()) {
            found.add(module + "/" + src.relativize(f));
          }
        }
      }
    }
    assertThat(found).isEmpty();
  }
}
