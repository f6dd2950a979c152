package io.fleetkit.api.scheduler;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
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

  /** Summed non-zero (scoring) requested milli-CPU. */
  long nonZeroRequestedMilliCpu();

  /** Summed non-zero (scoring) requested memory bytes. */
  long nonZeroRequestedMemory();

  List<PodInfo> pods();

  /** Pods on this node with any (anti-)affinity term, for the InterPodAffinity plugin's fast path. */
  List<PodInfo> podsWithAffinity();

  /** Pods on this node with a required anti-affinity term. */
  List<PodInfo> podsWithRequiredAntiAffinity();

  /** Changes whenever this node or its pods change; lets plugins cache per node. */
  long generation();
}
