package io.fleetkit.scheduler.gpu.trace;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the shared openb data is: {@code ${fleetkit.shared.dir}/data/openb}; when that does not exist (a git
 * worktree one level deeper than the main checkout), the nearest {@code shared/data/openb} above it. Never copied.
 */
public final class TraceData {
  private TraceData() {}

  public static Path shared() {
    Path start = Path.of(System.getProperty("fleetkit.shared.dir", "../shared")).toAbsolutePath().normalize();
    if (Files.isDirectory(start.resolve("data/openb"))) {
      return start;
    }
    for (Path p = start.getParent(); p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve("shared/data/openb"))) {
        return p.resolve("shared");
      }
    }
    throw new IllegalStateException("openb data not found from fleetkit.shared.dir " + start);
  }

  public static Path openb() {
    return shared().resolve("data/openb");
  }
}
