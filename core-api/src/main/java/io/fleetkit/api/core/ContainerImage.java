package io.fleetkit.api.core;

import java.util.List;
import java.util.Objects;

/**
 * One container image present on a node, as the kubelet reports it in {@code status.images} (core/v1
 * {@code ContainerImage}): the names it is known by (e.g. {@code registry.k8s.io/pause:3.9} and its digest
 * reference) and its size. The scheduler's ImageLocality score reads these.
 *
 * <p>The record copies {@code names}; {@link Node}'s constructor checks that there is at least one name, that no name
 * is empty, and that {@code sizeBytes} is not negative.
 *
 * @param names the image's names; upstream's {@code names}
 * @param sizeBytes the image's size in bytes; upstream's {@code sizeBytes}
 */
public record ContainerImage(List<String> names, long sizeBytes) {
  public ContainerImage {
    names = List.copyOf(Objects.requireNonNull(names, "names"));
  }

  /** An image known by the given names. */
  public static ContainerImage of(long sizeBytes, String... names) {
    return new ContainerImage(List.of(names), sizeBytes);
  }
}
