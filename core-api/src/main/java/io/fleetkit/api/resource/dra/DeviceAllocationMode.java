package io.fleetkit.api.resource.dra;

/** How many devices a request wants ({@code DeviceAllocationMode}). */
public enum DeviceAllocationMode {
  /** Exactly {@code count} devices (Kubernetes {@code ExactCount}, the default). */
  EXACT_COUNT("ExactCount"),
  /** Every matching device in the pools the node can reach (Kubernetes {@code All}). */
  ALL("All");

  private final String wireName;

  DeviceAllocationMode(String wireName) {
    this.wireName = wireName;
  }

  /** The name manifests use. */
  public String wireName() {
    return wireName;
  }

  /**
   * The mode named {@code name} in a manifest.
   *
   * @throws IllegalArgumentException with Kubernetes' {@code field.NotSupported} wording for other names
   */
  public static DeviceAllocationMode parse(String name) {
    for (DeviceAllocationMode m : values()) {
      if (m.wireName.equals(name)) {
        return m;
      }
    }
    throw new IllegalArgumentException("Unsupported value: \"" + name + "\": supported values: \"All\", "
        + "\"ExactCount\"");
  }
}
