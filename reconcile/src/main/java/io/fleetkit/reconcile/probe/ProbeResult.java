package io.fleetkit.reconcile.probe;

/** The cached verdict of a probe worker (kubelet's {@code results.Result}). */
public enum ProbeResult {
  Success,
  Failure,
  /** No verdict yet: the initial value of a startup probe. */
  Unknown
}
