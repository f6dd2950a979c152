package io.fleetkit.api.framework;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import java.util.List;
import java.util.Map;

/**
 * A read-only view of one node in the scheduler's snapshot: the node, the pods on it (bound, assumed or
 * nominated) and their summed requests. Views handed to plugins are never mutated while a cycle runs.
 */
public interface NodeInfo {
  Node node();

  String name();

  Map<String, String> labels();

  ResourceList allocatable();

  /** Summed effective requests of the pods on this node. */
  ResourceList requested();

  /** {@code requested().milliCpu()}; implementations may cache it (Filter and Score read it per node). */
  default long requestedMilliCpu() {
    return requested().milliCpu();
  }

  /** {@code requested().memoryBytes()}; implementations may cache it. */
  default long requestedMemory() {
    return requested().memoryBytes();
  }

  /** {@code requested().ephemeralStorageBytes()}; implementations may cache it. */
  default long requestedEphemeralStorage() {
    return requested().ephemeralStorageBytes();
  }

  /** Summed non-zero (scoring) requested milli-CPU. */
  long nonZeroRequestedMilliCpu();

  /** Summed non-zero (scoring) requested memory bytes. */
  long nonZeroRequestedMemory();

  List<PodInfo> pods();

  /** {@code pods().size()}; implementations may answer without touching the list (Filter reads it per node). */
  default int podCount() {
    return pods().size();
  }

  /** The node's {@code spec.unschedulable}; implementations may cache it (Filter reads it per node). */
  default boolean unschedulable() {
    return node().spec().unschedulable();
  }

  /** The node's {@code spec.taints}; implementations may cache it (Filter and Score read it per node). */
  default List<Taint> taints() {
    return node().spec().taints();
  }

  /** Pods on this node with any (anti-)affinity term, for the InterPodAffinity plugin's fast path. */
  List<PodInfo> podsWithAffinity();

  /** Pods on this node with a required anti-affinity term. */
  List<PodInfo> podsWithRequiredAntiAffinity();

  /** Changes whenever this node or its pods change; lets plugins cache per node. */
  long generation();
}
