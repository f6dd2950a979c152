package io.fleetkit.scheduler.internal;

import io.fleetkit.api.framework.PodInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Pods nominated to a node by preemption (or by {@code status.nominatedNodeName}), which Filter counts as if they ran
 * there for pods of equal or lower priority. Written under the scheduler's lock between cycles; read in parallel
 * during Filter.
 */
final class Nominator {
  private final Map<String, List<PodInfo>> byNode = new HashMap<>();
  private final Map<String, String> nodeByPod = new HashMap<>();

  boolean isEmpty() {
    return nodeByPod.isEmpty();
  }

  void add(PodInfo pod, String nodeName) {
    remove(pod.key());
    byNode.computeIfAbsent(nodeName, k -> new ArrayList<>(2)).add(pod);
    nodeByPod.put(pod.key(), nodeName);
  }

  void remove(String podKey) {
    String node = nodeByPod.remove(podKey);
    if (node == null) {
      return;
    }
    List<PodInfo> l = byNode.get(node);
    if (l != null) {
      l.removeIf(p -> p.key().equals(podKey));
      if (l.isEmpty()) {
        byNode.remove(node);
      }
    }
  }

  /** The pods nominated to {@code nodeName}: the live list, not a copy (Filter reads it per node); never changed by callers. */
  @Nullable List<PodInfo> forNode(String nodeName) {
    return byNode.get(nodeName);
  }

  @Nullable String nodeOf(String podKey) {
    return nodeByPod.get(podKey);
  }
}
