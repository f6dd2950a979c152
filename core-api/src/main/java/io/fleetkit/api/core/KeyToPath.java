package io.fleetkit.api.core;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One key of a ConfigMap or Secret written as a file of a volume (Kubernetes' {@code KeyToPath}).
 *
 * @param key the key whose value is written
 * @param path the file's path, relative to the volume's root
 * @param mode the file's permission bits (0 to 0777), or {@code null} for the volume's default mode
 */
public record KeyToPath(String key, String path, @Nullable Integer mode) {
  public KeyToPath {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(path, "path");
  }
}
