package io.fleetkit.api.autoscaling;

/** How a VPA applies its recommendations, spelled as in {@code autoscaling.k8s.io/v1}. */
public enum UpdateMode {
  /** Only recommends; pods are never changed. */
  Off,
  /** Sets requests when pods are created, never on running pods. */
  Initial,
  /** Evicts pods whose requests are far from the recommendation, and sets requests when they are re-created. */
  Recreate,
  /** Resizes pods in place where possible, else falls back to Recreate. */
  InPlaceOrRecreate,
  /** Deprecated upstream; means Recreate. */
  Auto;

  /** The mode this one behaves as: {@link #Auto} is {@link #Recreate}. */
  public UpdateMode effective() {
    return this == Auto ? Recreate : this;
  }
}
