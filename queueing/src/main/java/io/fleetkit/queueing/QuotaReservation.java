package io.fleetkit.queueing;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A workload's quota reservation (Kueue {@code Admission}, condition {@code QuotaReserved}).
 *
 * @param workload the workload's key, {@code namespace/name}
 * @param clusterQueue the ClusterQueue whose quota it uses
 * @param podSets one assignment per pod set, in the workload's order
 * @param admittedAt when the quota was reserved
 * @param borrowing whether the admission borrowed quota from the cohort
 */
public record QuotaReservation(
    String workload, String clusterQueue, List<PodSetAssignment> podSets, Instant admittedAt, boolean borrowing) {
  public QuotaReservation {
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(clusterQueue, "clusterQueue");
    podSets = List.copyOf(Objects.requireNonNull(podSets, "podSets"));
    Objects.requireNonNull(admittedAt, "admittedAt");
  }

  /**
   * Whether a pod set still waits for its delayed topology assignment (Kueue's {@code HasTopologyAssignmentsPending}):
   * the workload is then not admitted, whatever its checks.
   */
  public boolean topologyPending() {
    for (PodSetAssignment p : podSets) {
      if (p.topologyPending()) {
        return true;
      }
    }
    return false;
  }

  /** The flavor the first pod set that requests {@code resource} was given, or {@code null}. */
  public @org.jspecify.annotations.Nullable String flavorOf(String resource) {
    for (PodSetAssignment p : podSets) {
      String f = p.flavors().get(resource);
      if (f != null) {
        return f;
      }
    }
    return null;
  }
}
