package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Real headless Chromium for the report tests ({@code -Dfleetkit.chromium=/usr/bin/chromium}, set by .ci/run through
 * scripts/chromium.sh). Each run gets a profile of its own in a temporary directory, which is deleted with the run's
 * captured output when the browser has exited, so repeated test runs leave nothing behind. Shared with the command
 * line's report test through this module's test jar.
 */
public final class HeadlessChromium {
  /** How long one browser run may take before it is killed and the test fails. */
  public static final int TIMEOUT_SECONDS = 120;

  /** What one run printed: its exit code, its standard output (the DOM with {@code --dump-dom}) and its log. */
  public record Run(int exit, String stdout, String stderr) {
    /** The log lines of the page's console messages (Chromium writes them as {@code ...:CONSOLE(...)]}). */
    public List<String> consoleLines() {
      return stderr.lines().filter(l -> l.contains(":CONSOLE")).toList();
    }
  }

  private final String binary;

  private HeadlessChromium(String binary) {
    this.binary = binary;
  }

  /**
   * The browser named by {@code -Dfleetkit.chromium}: skips the calling test (an assumption) when the property is
   * unset, and fails it when the property names no executable.
   */
  public static HeadlessChromium fromSystemProperty() {
    String binary = System.getProperty("fleetkit.chromium", "");
    assumeTrue(!binary.isBlank(), "-Dfleetkit.chromium not set (scripts/chromium.sh env)");
    assertThat(Path.of(binary)).as("-Dfleetkit.chromium=%s", binary).isExecutable();
    return new HeadlessChromium(binary);
  }

  /**
   * Runs the browser once with {@code args} after the headless options, in a fresh profile, and waits for it.
   *
   * @throws AssertionError when it does not finish within {@link #TIMEOUT_SECONDS}
   */
  public Run run(String... args) throws IOException, InterruptedException {
    Path scratch = Files.createTempDirectory("fleetkit-chromium");
    try {
      Path profile = Files.createDirectory(scratch.resolve("profile"));
      List<String> cmd = new ArrayList<>(List.of(binary, "--headless", "--no-sandbox", "--disable-gpu",
          "--disable-dev-shm-usage", "--no-first-run", "--enable-logging=stderr", "--v=0",
          "--user-data-dir=" + profile.toAbsolutePath()));
      cmd.addAll(List.of(args));
      Path stdout = scratch.resolve("stdout");
      Path stderr = scratch.resolve("stderr");
      Process p = new ProcessBuilder(cmd).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
      if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        throw new AssertionError("chromium did not finish within " + TIMEOUT_SECONDS + " s: " + cmd);
      }
      return new Run(p.exitValue(), Files.readString(stdout), Files.readString(stderr));
    } finally {
      deleteTree(scratch);
    }
  }

  /**
   * Deletes {@code dir} and everything under it, as far as it can: what cannot be deleted (a file a browser helper
   * still holds) is left to the system's temporary-file clean-up. Never throws, so a clean-up problem cannot replace
   * the run's own outcome or failure.
   */
  static void deleteTree(Path dir) {
    try (Stream<Path> all = Files.walk(dir)) {
      all.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          // left behind; see above
        }
      });
    } catch (IOException | UncheckedIOException e) {
      // the tree changed or vanished while it was walked; see above
    }
  }
}
