package io.fleetkit.autoscale.cluster.simulator;

import org.jspecify.annotations.Nullable;

/**
 * A pod view that keeps what a {@link SimulatedCluster} reads of the pod on every placement, made once per pod object
 * (pods are immutable), and a note in which one simulation keeps what it made of the pod for its next search
 * ({@link SimulatedCluster#findFitFrom(io.fleetkit.api.framework.PodInfo, int, int)}). Any other
 * {@link io.fleetkit.api.framework.PodInfo} is read from its pod on every placement and searched with a fresh
 * PreFilter run.
 *
 * <p>The note is written and read only by simulations, which check that it is theirs; a view shared between threads
 * may see another thread's note, which its simulation then ignores.
 */
public interface SimulationPodInfo extends io.fleetkit.api.framework.PodInfo {
  /** {@link io.fleetkit.api.framework.NodeInfos#hasAffinity} of the pod. */
  boolean hasAffinity();

  /** {@link io.fleetkit.api.framework.NodeInfos#hasRequiredAntiAffinity} of the pod. */
  boolean hasRequiredAntiAffinity();

  /** The note a simulation left here, or {@code null}. */
  @Nullable Object simulationNote();

  /** Replaces the note ({@code null} clears it). */
  void simulationNote(@Nullable Object note);

  /** The note {@link SchedulingHints} keeps here (the pod's entry, so as not to look it up by UID), or {@code null}. */
  @Nullable Object hintNote();

  /** Replaces the hint note. */
  void hintNote(@Nullable Object note);
}
