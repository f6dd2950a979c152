package io.fleetkit.api.core;

/** What a {@link LimitRangeItem} constrains. */
public enum LimitType {
  /** The effective requests and limits of a whole pod. */
  Pod,
  /** Each container and init container of a pod (the only type that gets defaults). */
  Container,
  /** The storage request of a PersistentVolumeClaim. */
  PersistentVolumeClaim
}
