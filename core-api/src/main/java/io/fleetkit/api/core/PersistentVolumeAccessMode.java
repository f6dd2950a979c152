package io.fleetkit.api.core;

/** How a volume may be mounted, spelled as in Kubernetes. */
public enum PersistentVolumeAccessMode {
  /** Read-write by the pods of a single node. */
  ReadWriteOnce("RWO"),
  /** Read-only by many nodes. */
  ReadOnlyMany("ROX"),
  /** Read-write by many nodes. */
  ReadWriteMany("RWX"),
  /** Read-write by a single pod; may not be combined with other modes. */
  ReadWriteOncePod("RWOP");

  private final String shortName;

  PersistentVolumeAccessMode(String shortName) {
    this.shortName = shortName;
  }

  /** The abbreviation kubectl prints, e.g. {@code RWO}. */
  public String shortName() {
    return shortName;
  }
}
