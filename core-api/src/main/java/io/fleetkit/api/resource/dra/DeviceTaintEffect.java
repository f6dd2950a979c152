package io.fleetkit.api.resource.dra;

/**
 * The effect of a device taint ({@code DeviceTaintEffect}) on claims that do not tolerate it. Unlike node taints
 * there is no PreferNoSchedule.
 */
public enum DeviceTaintEffect {
  /** No effect: the taint is informational (Kubernetes {@code None}). */
  NONE("None"),
  /** A claim that does not tolerate the taint does not get the device allocated (Kubernetes {@code NoSchedule}). */
  NO_SCHEDULE("NoSchedule"),
  /**
   * As NoSchedule, and pods using a claim already allocated with the device get evicted unless they tolerate it
   * (Kubernetes {@code NoExecute}).
   */
  NO_EXECUTE("NoExecute");

  private final String wireName;

  DeviceTaintEffect(String wireName) {
    this.wireName = wireName;
  }

  /** The name manifests use. */
  public String wireName() {
    return wireName;
  }

  /** Whether a device with an untolerated taint of this effect may not be allocated (NoSchedule and NoExecute). */
  public boolean preventsAllocation() {
    return this != NONE;
  }

  /**
   * The effect named {@code name} in a manifest.
   *
   * @throws IllegalArgumentException with Kubernetes' {@code field.NotSupported} wording for other names
   */
  public static DeviceTaintEffect parse(String name) {
    for (DeviceTaintEffect e : values()) {
      if (e.wireName.equals(name)) {
        return e;
      }
    }
    throw new IllegalArgumentException("Unsupported value: \"" + name + "\": supported values: \"NoExecute\", "
        + "\"NoSchedule\", \"None\"");
  }
}
