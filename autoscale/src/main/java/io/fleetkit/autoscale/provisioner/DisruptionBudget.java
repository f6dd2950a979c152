package io.fleetkit.autoscale.provisioner;

import io.fleetkit.api.meta.IntOrPercent;
import java.util.Objects;
import java.util.Set;

/**
 * One of Karpenter's disruption budgets ({@code NodePool.spec.disruption.budgets[]}, {@code pkg/apis/v1/nodepool.go}):
 * at most {@code nodes} of the provisioner's nodes may be disrupted at once for the reasons it applies to. A
 * percentage is of the provisioner's nodes, rounded up (Karpenter's {@code GetAllowedDisruptions}); nodes already
 * being replaced count against it. Always active: Karpenter's {@code schedule} and {@code duration} are not modelled.
 *
 * @param nodes how many nodes, or what share of them, may be disrupted at once ({@code 0}: none)
 * @param reasons the reasons it applies to; empty: all of them
 */
public record DisruptionBudget(IntOrPercent nodes, Set<DisruptionReason> reasons) {
  /** Karpenter's default budget, {@code {nodes: "10%"}} for every reason. */
  public static final DisruptionBudget DEFAULT = of(IntOrPercent.ofPercent(10));

  public DisruptionBudget {
    Objects.requireNonNull(nodes, "nodes");
    if (nodes.value() < 0) {
      throw new IllegalArgumentException("disruption budget: nodes " + nodes + " must not be negative");
    }
    reasons = Set.copyOf(reasons);
  }

  /** A budget of {@code nodes} for every reason. */
  public static DisruptionBudget of(IntOrPercent nodes) {
    return new DisruptionBudget(nodes, Set.of());
  }

  /** Whether this budget limits disruptions for {@code reason}. */
  public boolean appliesTo(DisruptionReason reason) {
    return reasons.isEmpty() || reasons.contains(reason);
  }
}
