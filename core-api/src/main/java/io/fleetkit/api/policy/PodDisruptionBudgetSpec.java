package io.fleetkit.api.policy;

import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.labels.LabelSelector;
import org.jspecify.annotations.Nullable;

/**
 * The desired state of a PodDisruptionBudget ({@code policy/v1}): exactly one of {@code minAvailable} and
 * {@code maxUnavailable}. Rules are checked by {@link PodDisruptionBudget}.
 *
 * @param selector the pods covered; {@code null} selects none, an empty selector every pod of the namespace
 * @param unhealthyPodEvictionPolicy {@code null} when unset (behaves as IfHealthyBudget)
 */
public record PodDisruptionBudgetSpec(@Nullable IntOrPercent minAvailable, @Nullable LabelSelector selector,
    @Nullable IntOrPercent maxUnavailable, @Nullable UnhealthyPodEvictionPolicyType unhealthyPodEvictionPolicy) {

  /** At least {@code minAvailable} of the selected pods stay available. */
  public static PodDisruptionBudgetSpec minAvailable(LabelSelector selector, IntOrPercent minAvailable) {
    return new PodDisruptionBudgetSpec(minAvailable, selector, null, null);
  }

  /** At most {@code maxUnavailable} of the selected pods are unavailable. */
  public static PodDisruptionBudgetSpec maxUnavailable(LabelSelector selector, IntOrPercent maxUnavailable) {
    return new PodDisruptionBudgetSpec(null, selector, maxUnavailable, null);
  }

  public PodDisruptionBudgetSpec withUnhealthyPodEvictionPolicy(@Nullable UnhealthyPodEvictionPolicyType p) {
    return new PodDisruptionBudgetSpec(minAvailable, selector, maxUnavailable, p);
  }

  /** The policy in force: the one set, else IfHealthyBudget. */
  public UnhealthyPodEvictionPolicyType effectiveUnhealthyPodEvictionPolicy() {
    UnhealthyPodEvictionPolicyType p = unhealthyPodEvictionPolicy;
    return p != null ? p : UnhealthyPodEvictionPolicyType.IfHealthyBudget;
  }
}
