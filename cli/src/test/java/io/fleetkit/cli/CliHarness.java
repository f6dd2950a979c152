package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;

/** What the CLI's tests share: running the CLI in-process, and finding the repository's folders. */
final class CliHarness {
  private CliHarness() {}

  /**
   * Runs {@code fleetkit args...} in this JVM, as {@link FleetKitCli#main} builds it for them, with its output into
   * {@code out} and {@code err}; the exit code.
   */
  static int run(StringWriter out, StringWriter err, String... args) {
    CommandLine cli = FleetKitCli.commandLine(args);
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  /** The repository's root: the first folder at or above the working directory that holds core-api/pom.xml. */
  static Path root() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.exists(p.resolve("core-api/pom.xml"))) {
      p = p.getParent();
    }
    assertThat(p).as("project root above %s", Path.of("").toAbsolutePath()).isNotNull();
    return p;
  }

  /** {@code examples/<name>} of the repository. */
  static Path example(String name) {
    Path p = root().resolve("examples").resolve(name);
    assertThat(p).isDirectory();
    return p;
  }
}
