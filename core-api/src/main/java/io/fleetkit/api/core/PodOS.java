package io.fleetkit.api.core;

import java.util.List;
import java.util.Objects;

/**
 * The operating system a pod's containers need ({@code spec.os}, Kubernetes' {@code PodOS}): {@code linux} or
 * {@code windows}. It decides which {@code lifecycle.stopSignal} values the containers may use ({@link Signal}); a
 * pod without it may set none. Immutable once the pod exists.
 *
 * @param name {@value #LINUX_NAME} or {@value #WINDOWS_NAME}; any other value is refused when the pod is built
 */
public record PodOS(String name) {
  public static final String LINUX_NAME = "linux";
  public static final String WINDOWS_NAME = "windows";
  /** The names Kubernetes accepts ({@code validOS}), sorted. */
  public static final List<String> NAMES = List.of(LINUX_NAME, WINDOWS_NAME);
  public static final PodOS LINUX = new PodOS(LINUX_NAME);
  public static final PodOS WINDOWS = new PodOS(WINDOWS_NAME);

  public PodOS {
    Objects.requireNonNull(name, "name");
  }

  public boolean isLinux() {
    return name.equals(LINUX_NAME);
  }

  public boolean isWindows() {
    return name.equals(WINDOWS_NAME);
  }
}
