package io.fleetkit.api.scheduling;

/**
 * Toleration operators, spelled as in Kubernetes.
 *
 * <p>{@link #Lt} and {@link #Gt} are Kubernetes' numeric comparison operators (KEP-5471, alpha in 1.35 behind the
 * {@code TaintTolerationComparisonOperators} feature gate). FleetKit has no feature gates: they are always on. See
 * {@link Toleration#toleratesTaint} for how each operator matches.
 */
public enum TolerationOperator {
  /** The taint's value must equal the toleration's. */
  Equal,
  /** Any taint value matches; the toleration's value must be empty. */
  Exists,
  /** The taint's value, read as a 64-bit integer, must be less than the toleration's. */
  Lt,
  /** The taint's value, read as a 64-bit integer, must be greater than the toleration's. */
  Gt
}
