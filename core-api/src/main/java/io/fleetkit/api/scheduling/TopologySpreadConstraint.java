package io.fleetkit.api.scheduling;

import io.fleetkit.api.labels.LabelSelector;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A topology spread constraint. {@code minDomains} is {@code null} when unset; {@code nodeAffinityPolicy}
 * defaults to Honor and {@code nodeTaintsPolicy} to Ignore, as in Kubernetes.
 */
public record TopologySpreadConstraint(int maxSkew, String topologyKey, UnsatisfiableConstraintAction whenUnsatisfiable,
    @Nullable LabelSelector labelSelector, @Nullable Integer minDomains, NodeInclusionPolicy nodeAffinityPolicy,
    NodeInclusionPolicy nodeTaintsPolicy, List<String> matchLabelKeys) {
  public TopologySpreadConstraint {
    Objects.requireNonNull(topologyKey, "topologyKey");
    Objects.requireNonNull(whenUnsatisfiable, "whenUnsatisfiable");
    Objects.requireNonNull(nodeAffinityPolicy, "nodeAffinityPolicy");
    Objects.requireNonNull(nodeTaintsPolicy, "nodeTaintsPolicy");
    matchLabelKeys = List.copyOf(matchLabelKeys);
  }

  public static TopologySpreadConstraint of(int maxSkew, String topologyKey, UnsatisfiableConstraintAction action,
      LabelSelector selector) {
    return new TopologySpreadConstraint(maxSkew, topologyKey, action, selector, null, NodeInclusionPolicy.Honor,
        NodeInclusionPolicy.Ignore, List.of());
  }
}
