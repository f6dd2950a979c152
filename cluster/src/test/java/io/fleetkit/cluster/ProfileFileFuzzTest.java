package io.fleetkit.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.fleetkit.api.framework.SchedulerProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Fuzzes the scheduler profile reader ({@code fleetkit schedule --profile FILE}): any file content gives profiles, or
 * an {@link IllegalArgumentException} whose message names the file (the command prints it and exits 1); never
 * another exception, never a hang. The corpus holds a real configuration and the red-team cases (a {@code profile:}
 * typo, a Pod manifest, misspelled and empty plugin names, odd types).
 */
final class ProfileFileFuzzTest {
  @FuzzTest(maxDuration = "30s")
  void load_anyBytes_profilesOrErrorNamingTheFile(byte[] data) {
    Path file;
    try {
      file = Files.createTempFile("fleetkit-profile-fuzz", ".yaml");
      Files.write(file, data);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      List<SchedulerProfile> profiles = ProfileFile.load(file);
      assertThat(profiles).isNotEmpty().doesNotContainNull();
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).startsWith(file.toString());
    } finally {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        // a temp file left behind is harmless
      }
    }
  }
}
