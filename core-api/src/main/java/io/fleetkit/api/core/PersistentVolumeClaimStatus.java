package io.fleetkit.api.core;

import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Objects;

/**
 * The observed state of a PersistentVolumeClaim.
 *
 * @param accessModes the access modes of the bound volume; empty while unbound
 * @param capacity the size of the bound volume; empty while unbound
 */
public record PersistentVolumeClaimStatus(PersistentVolumeClaimPhase phase,
    List<PersistentVolumeAccessMode> accessModes, ResourceList capacity,
    List<PersistentVolumeClaimCondition> conditions) {
  /** The status of a new claim. */
  public static final PersistentVolumeClaimStatus INITIAL =
      new PersistentVolumeClaimStatus(PersistentVolumeClaimPhase.Pending, List.of(), ResourceList.EMPTY, List.of());

  public PersistentVolumeClaimStatus {
    Objects.requireNonNull(phase, "phase");
    accessModes = List.copyOf(accessModes);
    Objects.requireNonNull(capacity, "capacity");
    conditions = List.copyOf(conditions);
  }

  /** Bound to a volume with these modes and capacity. */
  public static PersistentVolumeClaimStatus bound(List<PersistentVolumeAccessMode> modes, ResourceList capacity) {
    return new PersistentVolumeClaimStatus(PersistentVolumeClaimPhase.Bound, modes, capacity, List.of());
  }
}
