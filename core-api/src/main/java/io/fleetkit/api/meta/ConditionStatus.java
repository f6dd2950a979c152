package io.fleetkit.api.meta;

/** The status of a condition, spelled as in Kubernetes. */
public enum ConditionStatus {
  True,
  False,
  Unknown;

  /** {@link #True} or {@link #False}. */
  public static ConditionStatus of(boolean value) {
    return value ? True : False;
  }
}
