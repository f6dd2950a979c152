package io.fleetkit.api.apps;

/**
 * A StatefulSet's {@code spec.ordinals} (apps/v1, GA in Kubernetes 1.31): the pods are numbered from {@code start} to
 * {@code start + replicas - 1}; a pod of the set outside that range is condemned (deleted, highest ordinal first).
 * {@code start} must not be negative; the set's constructor checks it, with its other fields.
 *
 * @param start the first replica's ordinal; 0 by default
 */
public record StatefulSetOrdinals(int start) {
  /** Ordinals from 0, Kubernetes' behaviour when {@code spec.ordinals} is unset. */
  public static final StatefulSetOrdinals DEFAULT = new StatefulSetOrdinals(0);

  /** Ordinals from {@code start}. */
  public static StatefulSetOrdinals startingAt(int start) {
    return start == 0 ? DEFAULT : new StatefulSetOrdinals(start);
  }
}
