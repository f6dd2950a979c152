package io.fleetkit.queueing;

import io.fleetkit.api.scheduling.Toleration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Additions an admission check asks for on one pod set's pod template (Kueue {@code PodSetUpdate}), applied when the
 * workload's pods are started. Additions only: a key the template or another check already sets to another value is
 * a conflict, and the workload fails to start ({@link PodSetInfo#merge}). Validated with the check state that carries
 * it ({@link AdmissionEngine#setCheckState}): the name must be one of the workload's pod sets, labels and node
 * selector valid Kubernetes labels, annotation keys qualified names.
 *
 * @param name the pod set's name
 * @param labels labels to add to the pod template
 * @param annotations annotations to add to the pod template
 * @param nodeSelector node selector entries to add
 * @param tolerations tolerations to add (one equal to a present toleration is not added twice)
 */
public record PodSetUpdate(String name, Map<String, String> labels, Map<String, String> annotations,
    Map<String, String> nodeSelector, List<Toleration> tolerations) {
  public PodSetUpdate {
    Objects.requireNonNull(name, "name");
    labels = Map.copyOf(Objects.requireNonNull(labels, "labels"));
    annotations = Map.copyOf(Objects.requireNonNull(annotations, "annotations"));
    nodeSelector = Map.copyOf(Objects.requireNonNull(nodeSelector, "nodeSelector"));
    tolerations = List.copyOf(Objects.requireNonNull(tolerations, "tolerations"));
  }

  /** An update of pod set {@code name} that adds nothing yet. */
  public static PodSetUpdate of(String name) {
    return new PodSetUpdate(name, Map.of(), Map.of(), Map.of(), List.of());
  }

  public PodSetUpdate withLabels(Map<String, String> labels) {
    return new PodSetUpdate(name, labels, annotations, nodeSelector, tolerations);
  }

  public PodSetUpdate withAnnotations(Map<String, String> annotations) {
    return new PodSetUpdate(name, labels, annotations, nodeSelector, tolerations);
  }

  public PodSetUpdate withNodeSelector(Map<String, String> nodeSelector) {
    return new PodSetUpdate(name, labels, annotations, nodeSelector, tolerations);
  }

  public PodSetUpdate withTolerations(List<Toleration> tolerations) {
    return new PodSetUpdate(name, labels, annotations, nodeSelector, tolerations);
  }
}
