package io.fleetkit.api.core;

import java.util.Map;
import java.util.Objects;

/**
 * The claim a generic ephemeral volume ({@link VolumeSource.Ephemeral}) asks for: Kubernetes'
 * {@code PersistentVolumeClaimTemplate}. Of the template's {@code metadata} only labels and annotations may be set
 * (upstream's {@code ValidateTemplateObjectMeta}); the claim's name is derived from the pod and the volume, its
 * namespace is the pod's. The rules (the spec's as a claim's, label keys and values, annotation keys) are checked
 * with the pod or workload that holds the template.
 *
 * @param labels copied onto the claim
 * @param annotations copied onto the claim
 * @param spec the claim's spec, copied as it is
 */
public record PersistentVolumeClaimTemplate(Map<String, String> labels, Map<String, String> annotations,
    PersistentVolumeClaimSpec spec) {

  public PersistentVolumeClaimTemplate {
    labels = Map.copyOf(labels);
    annotations = Map.copyOf(annotations);
    Objects.requireNonNull(spec, "spec");
  }

  /** A template without labels or annotations. */
  public static PersistentVolumeClaimTemplate of(PersistentVolumeClaimSpec spec) {
    return new PersistentVolumeClaimTemplate(Map.of(), Map.of(), spec);
  }
}
