package io.fleetkit.api.core;

/**
 * A Service's {@code spec.ipFamilyPolicy}, spelled as in Kubernetes: how many IP families (and cluster IPs) it asks
 * for. Unset ({@code null} in {@link ServiceSpec}) until addresses are allocated, when the allocator writes the
 * default: {@code RequireDualStack} for a headless Service without selector, else {@code SingleStack}.
 */
public enum IPFamilyPolicy {
  /** One family: the first of {@code ipFamilies}, else the cluster's primary. */
  SingleStack,
  /** Two families on a dual-stack cluster, one on a single-stack cluster. */
  PreferDualStack,
  /** Two families; refused on a single-stack cluster (except for a headless Service without selector). */
  RequireDualStack
}
