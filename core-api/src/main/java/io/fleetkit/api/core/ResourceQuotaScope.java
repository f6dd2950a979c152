package io.fleetkit.api.core;

/** A scope a {@link ResourceQuota} may be restricted to (Kubernetes' {@code ResourceQuotaScope}). */
public enum ResourceQuotaScope {
  /** Pods with {@code activeDeadlineSeconds} set (at least 0). */
  Terminating,
  /** Pods without {@code activeDeadlineSeconds}. */
  NotTerminating,
  /** Pods with quality of service BestEffort (no requests or limits anywhere). */
  BestEffort,
  /** Pods with a request or a limit. */
  NotBestEffort,
  /** Pods whose {@code priorityClassName} matches the scope selector. */
  PriorityClass,
  /** Pods with an affinity term that names other namespaces ({@code namespaces} or {@code namespaceSelector}). */
  CrossNamespacePodAffinity
}
