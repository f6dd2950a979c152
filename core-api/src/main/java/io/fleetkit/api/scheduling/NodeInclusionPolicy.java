package io.fleetkit.api.scheduling;

/** {@code nodeAffinityPolicy} / {@code nodeTaintsPolicy} of a topology spread constraint. */
public enum NodeInclusionPolicy {
  Honor,
  Ignore
}
