package io.fleetkit.api.apps;

import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A StatefulSet's volume claim template: each pod {@code <sts>-<ordinal>} gets a claim named
 * {@code <name>-<sts>-<ordinal>} made from it.
 *
 * @param storageClassName {@code null} for the default class, empty for "no class"
 * @param accessModes e.g. {@code ReadWriteOnce}
 * @param requests usually {@code storage}
 */
public record ClaimTemplate(String name, @Nullable String storageClassName, List<String> accessModes,
    ResourceList requests, Map<String, String> labels) {
  public ClaimTemplate {
    Objects.requireNonNull(name, "name");
    accessModes = List.copyOf(accessModes);
    Objects.requireNonNull(requests, "requests");
    labels = Map.copyOf(labels);
  }

  public static ClaimTemplate of(String name, @Nullable String storageClassName, ResourceList requests) {
    return new ClaimTemplate(name, storageClassName, List.of("ReadWriteOnce"), requests, Map.of());
  }

  /** The claim name for the pod with this ordinal: {@code <name>-<statefulSet>-<ordinal>}. */
  public String claimName(String statefulSetName, int ordinal) {
    return name + "-" + statefulSetName + "-" + ordinal;
  }
}
