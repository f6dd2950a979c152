package io.fleetkit.queueing;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A LocalQueue's admission fair sharing status (Kueue's {@code status.fairSharing.admissionFairSharingStatus}): its
 * decayed consumed resources and when they were last sampled ({@link AdmissionEngine#localQueueFairSharing}). Given
 * to {@link AdmissionEngine#assumeLocalQueueFairSharing} it restores a LocalQueue's history, as Kueue seeds its usage
 * from the persisted status after a restart.
 *
 * @param consumedResources the decayed consumed amount of each resource, summed over flavors, in resource order
 * @param lastUpdate when they were last updated
 */
public record LocalQueueFairSharingStatus(Map<String, io.fleetkit.api.resource.Quantity> consumedResources,
    Instant lastUpdate) {
  /**
   * @throws IllegalArgumentException if a consumed amount is negative
   */
  public LocalQueueFairSharingStatus {
    Objects.requireNonNull(consumedResources, "consumedResources");
    Objects.requireNonNull(lastUpdate, "lastUpdate");
    TreeMap<String, io.fleetkit.api.resource.Quantity> copy = new TreeMap<>();
    for (Map.Entry<String, io.fleetkit.api.resource.Quantity> e : consumedResources.entrySet()) {
      io.fleetkit.api.resource.Quantity q = Objects.requireNonNull(e.getValue(), e.getKey());
      if (q.isNegative()) {
        throw new IllegalArgumentException("LocalQueue status.fairSharing.admissionFairSharingStatus.consumedResources["
            + e.getKey() + "] \"" + q + "\" must not be negative");
      }
      copy.put(Objects.requireNonNull(e.getKey(), "consumedResources key"), q);
    }
    consumedResources = java.util.Collections.unmodifiableSortedMap(copy);
  }
}
