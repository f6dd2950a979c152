package io.fleetkit.reconcile.controllers;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Whether a pod may be evicted, and why, as the answer of Kubernetes' eviction subresource: allowed, or refused with
 * the message the API server gives (HTTP 429 when a PodDisruptionBudget has no disruptions left).
 *
 * @param reason why, for logs and users; never empty
 * @param budget {@code namespace/name} of the PodDisruptionBudget that decided, or {@code null} when none did
 * @param podGone whether no pod of that name and uid was there to evict (allowed: the API server answers 404 Not
 *     Found, which a drain counts as evicted and the VPA updater as a failed eviction)
 */
public record EvictionDecision(boolean allowed, String reason, @Nullable String budget, boolean podGone) {
  /** Upstream's message when a budget has no disruptions left. */
  public static final String VIOLATES_BUDGET = "Cannot evict pod as it would violate the pod's disruption budget.";
  /** Upstream's message when more than one budget selects the pod. */
  public static final String MULTIPLE_BUDGETS =
      "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.";

  public EvictionDecision {
    Objects.requireNonNull(reason, "reason");
    if (reason.isEmpty()) {
      throw new IllegalArgumentException("EvictionDecision: reason must not be empty");
    }
    if (podGone && !allowed) {
      throw new IllegalArgumentException("EvictionDecision: a gone pod's eviction is allowed");
    }
  }

  /** A decision about a pod that is there. */
  public EvictionDecision(boolean allowed, String reason, @Nullable String budget) {
    this(allowed, reason, budget, false);
  }

  static EvictionDecision allow(String reason, @Nullable String budget) {
    return new EvictionDecision(true, reason, budget);
  }

  static EvictionDecision refuse(String reason, @Nullable String budget) {
    return new EvictionDecision(false, reason, budget);
  }
}
