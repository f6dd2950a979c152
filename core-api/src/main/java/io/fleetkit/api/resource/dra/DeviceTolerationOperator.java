package io.fleetkit.api.resource.dra;

/** How a {@link DeviceToleration} compares values ({@code DeviceTolerationOperator}). */
public enum DeviceTolerationOperator {
  /** The taint's value must equal the toleration's (Kubernetes {@code Equal}, the default). */
  EQUAL("Equal"),
  /** Any taint value matches; the toleration's value must be empty (Kubernetes {@code Exists}). */
  EXISTS("Exists");

  private final String wireName;

  DeviceTolerationOperator(String wireName) {
    this.wireName = wireName;
  }

  /** The name manifests use. */
  public String wireName() {
    return wireName;
  }

  /**
   * The operator named {@code name} in a manifest.
   *
   * @throws IllegalArgumentException with Kubernetes' {@code field.NotSupported} wording for other names
   */
  public static DeviceTolerationOperator parse(String name) {
    for (DeviceTolerationOperator o : values()) {
      if (o.wireName.equals(name)) {
        return o;
      }
    }
    throw new IllegalArgumentException("Unsupported value: \"" + name + "\": supported values: \"Equal\", "
        + "\"Exists\"");
  }
}
