package io.fleetkit.api.framework;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** The cluster as of the start of a scheduling cycle. Immutable for the cycle's duration. */
public interface Snapshot {
  /** Every node, in a stable order. */
  List<NodeInfo> nodes();

  /** Nodes that hold at least one pod with (anti-)affinity. */
  List<NodeInfo> nodesWithAffinityPods();

  /** Nodes that hold at least one pod with required anti-affinity. */
  List<NodeInfo> nodesWithRequiredAntiAffinityPods();

  @Nullable NodeInfo get(String nodeName);

  int size();
}
