package io.fleetkit.adapter.slurm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * The recorded slurmrestd 22.05.8 responses in shared/reference/slurm-samples, read in place (never copied into
 * the project). Located by the system property {@code fleetkit.slurm.samples}, else
 * {@code ${fleetkit.shared.dir}/reference/slurm-samples} (set by the parent POM's surefire configuration), else
 * {@code /work/shared/reference/slurm-samples}. Tests that need them are skipped, with the paths tried, when none
 * exists.
 */
final class Samples {
  private Samples() {}

  static Path dir() {
    String explicit = System.getProperty("fleetkit.slurm.samples");
    String shared = System.getProperty("fleetkit.shared.dir");
    Path[] candidates = {
        explicit == null ? null : Path.of(explicit),
        shared == null ? null : Path.of(shared, "reference", "slurm-samples"),
        Path.of("/work/shared/reference/slurm-samples")};
    StringBuilder tried = new StringBuilder();
    for (Path p : candidates) {
      if (p != null) {
        if (Files.isDirectory(p)) {
          return p;
        }
        tried.append(' ').append(p);
      }
    }
    Assumptions.abort("slurm samples not found (tried" + tried + "); set -Dfleetkit.slurm.samples=<dir>");
    throw new AssertionError("unreachable");
  }

  static String read(String file) {
    try {
      return Files.readString(dir().resolve(file), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
