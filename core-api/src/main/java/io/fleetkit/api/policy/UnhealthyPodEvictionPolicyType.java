package io.fleetkit.api.policy;

/**
 * When running but not ready pods may be evicted, spelled as in {@code policy/v1}. Unset behaves as
 * {@link #IfHealthyBudget}.
 */
public enum UnhealthyPodEvictionPolicyType {
  /** Only while the budget is met ({@code currentHealthy >= desiredHealthy}). */
  IfHealthyBudget,
  /** Always, regardless of the budget. */
  AlwaysAllow
}
