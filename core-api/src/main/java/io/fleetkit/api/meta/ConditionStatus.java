package io.fleetkit.api.meta;

/** The status of a condition ({@code True}, {@code False}, {@code Unknown}), shared by every kind's conditions. */
public enum ConditionStatus {
  True,
  False,
  Unknown;

  /** {@link #True} for {@code true}, else {@link #False}. */
  public static ConditionStatus of(boolean value) {
    return value ? True : False;
  }
}
