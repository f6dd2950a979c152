package io.fleetkit.scheduler.internal;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.PodInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
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

  /**
   * kube's {@code AddNominatedPod}: drops the pod's nomination, then nominates it to {@code overrideNode} (kube's
   * {@code ModeOverride}) or, when that is null, to its own {@code status.nominatedNodeName} (kube's {@code ModeNoop};
   * none when that is empty). Nothing is nominated when {@code lister} (kube's pod lister: the pod's current object by
   * key, or null) no longer knows the pod or knows it bound to a node: a nomination that outlives its pod would hold
   * room on the node for lower-priority pods forever. Returns whether the pod is now nominated.
   */
  boolean addNominated(PodInfo pod, @Nullable String overrideNode, Function<String, @Nullable Pod> lister) {
    remove(pod.key());
    String node = overrideNode != null ? overrideNode : pod.pod().status().nominatedNodeName();
    if (node.isEmpty()) {
      return false;
    }
    Pod current = lister.apply(pod.key());
    if (current == null || !current.spec().nodeName().isEmpty()) {
      return false;
    }
    add(pod, node);
    return true;
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
