package io.fleetkit.api.resource.dra;

import java.util.Map;
import java.util.Objects;

/**
 * What a {@link ResourceClaimTemplate} stamps out ({@code ResourceClaimTemplateSpec}): the labels and annotations
 * and the spec of each generated claim.
 *
 * @param labels labels copied to every generated claim
 * @param annotations annotations copied to every generated claim
 * @param spec the spec of every generated claim
 */
public record ResourceClaimTemplateSpec(Map<String, String> labels, Map<String, String> annotations,
    ResourceClaimSpec spec) {
  public ResourceClaimTemplateSpec {
    labels = Map.copyOf(labels);
    annotations = Map.copyOf(annotations);
    Objects.requireNonNull(spec, "spec");
  }

  /** Claims with {@code spec} and no labels or annotations. */
  public static ResourceClaimTemplateSpec of(ResourceClaimSpec spec) {
    return new ResourceClaimTemplateSpec(Map.of(), Map.of(), spec);
  }
}
