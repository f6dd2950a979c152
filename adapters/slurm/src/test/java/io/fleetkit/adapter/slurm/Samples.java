package io.fleetkit.adapter.slurm;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The recorded slurmrestd 22.05.8 bodies in this module's test resources ({@code io/fleetkit/adapter/slurm/samples},
 * see the README there).
 */
final class Samples {
  private Samples() {}

  static String read(String file) {
    try (InputStream in = Samples.class.getResourceAsStream("samples/" + file)) {
      if (in == null) {
        throw new IllegalStateException("no recorded slurmrestd sample " + file);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
