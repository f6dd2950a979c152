package io.fleetkit.queueing;

import io.fleetkit.api.Violations;
import io.fleetkit.api.scheduling.SchedulingValidation;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.Toleration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A variant of a resource (Kueue {@code ResourceFlavor}): for example on-demand vs spot nodes, or one GPU model.
 *
 * <p>As in Kueue's flavor assigner, a pod set is given this flavor only if its pods could run on the flavor's nodes:
 * the pods' tolerations, with the flavor's {@code tolerations}, tolerate every {@code NoSchedule} and
 * {@code NoExecute} taint of {@code nodeTaints}, and the pods' {@code nodeSelector} and required node affinity match
 * {@code nodeLabels} (only on the label keys some flavor of the same resource group defines). The node labels and
 * tolerations are reported with each admission, so that a pod scheduler can pin the pods to those nodes.
 *
 * @param name the flavor's name, a DNS subdomain
 * @param nodeLabels labels of the nodes that provide this flavor (may be empty)
 * @param nodeTaints taints of the nodes that provide this flavor (may be empty)
 * @param tolerations tolerations an admitted workload's pods get (may be empty)
 * @param topologyName the {@link Topology} of the flavor's nodes (Kueue {@code spec.topologyName}, topology-aware
 *     scheduling), or {@code null}: with one, a pod set is admitted in this flavor only if the engine finds a
 *     {@link TopologyAssignment} for its pods on the flavor's nodes
 */
public record ResourceFlavor(String name, Map<String, String> nodeLabels, List<Taint> nodeTaints,
    List<Toleration> tolerations, @Nullable String topologyName) {
  public static final String KIND = "ResourceFlavor";

  public ResourceFlavor {
    Objects.requireNonNull(name, "name");
    nodeLabels = Map.copyOf(Objects.requireNonNull(nodeLabels, "nodeLabels"));
    nodeTaints = List.copyOf(Objects.requireNonNull(nodeTaints, "nodeTaints"));
    tolerations = List.copyOf(Objects.requireNonNull(tolerations, "tolerations"));
    Violations v = new Violations(KIND, "", name);
    v.dnsSubdomain("metadata.name", name);
    v.labels("spec.nodeLabels", nodeLabels);
    v.addAll(SchedulingValidation.validateTaints(nodeTaints, "spec.nodeTaints"));
    v.addAll(SchedulingValidation.validateTolerations(tolerations, "spec.tolerations"));
    if (topologyName != null) {
      v.dnsSubdomain("spec.topologyName", topologyName);
    }
    v.throwIfAny();
  }

  /** A flavor without a topology. */
  public ResourceFlavor(String name, Map<String, String> nodeLabels, List<Taint> nodeTaints,
      List<Toleration> tolerations) {
    this(name, nodeLabels, nodeTaints, tolerations, null);
  }

  /** A flavor with node labels and neither taints nor tolerations. */
  public ResourceFlavor(String name, Map<String, String> nodeLabels) {
    this(name, nodeLabels, List.of(), List.of());
  }

  /** A flavor without node labels, taints or tolerations. */
  public static ResourceFlavor of(String name) {
    return new ResourceFlavor(name, Map.of());
  }

  /** This flavor with {@code taints} as its node taints. */
  public ResourceFlavor withNodeTaints(List<Taint> taints) {
    return new ResourceFlavor(name, nodeLabels, taints, tolerations, topologyName);
  }

  /** This flavor with {@code tolerations} as the tolerations its admitted pods get. */
  public ResourceFlavor withTolerations(List<Toleration> tolerations) {
    return new ResourceFlavor(name, nodeLabels, nodeTaints, tolerations, topologyName);
  }

  /** This flavor with the nodes of {@code topologyName} ({@code null}: none), for topology-aware scheduling. */
  public ResourceFlavor withTopologyName(@Nullable String topologyName) {
    return new ResourceFlavor(name, nodeLabels, nodeTaints, tolerations, topologyName);
  }
}
