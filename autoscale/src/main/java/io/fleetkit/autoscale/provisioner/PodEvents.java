package io.fleetkit.autoscale.provisioner;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.Pod;
import io.fleetkit.autoscale.cluster.TemplateNodes;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * When each Ready managed node last had a pod event, for {@code consolidateAfter}: Karpenter's NodeClaim
 * {@code status.lastPodEventTime} ({@code pkg/controllers/nodeclaim/podevents/controller.go}: a pod bound to the node,
 * or on it gone terminal or terminating; DaemonSet pods do not count) and its {@code Consolidatable} condition
 * ({@code pkg/controllers/nodeclaim/disruption/consolidation.go}: with no pod event yet, the time the node was
 * initialized counts). Events are seen when {@link #observe} runs, as changes in the set of the node's live pods: at
 * most one loop late, as Karpenter's own 10 s de-duplication of pod events. Not thread-safe.
 */
final class PodEvents {
  private record Seen(Set<String> pods, Instant lastEvent) {}

  private final Map<String, Seen> seen = new HashMap<>();

  /** Records the pod events of {@code nodes} (Ready managed nodes are tracked, others forgotten) at {@code now}. */
  void observe(List<Node> nodes, List<Pod> pods, Instant now) {
    Map<String, Set<String>> live = new HashMap<>();
    for (Pod p : pods) {
      if (p.isBound() && !p.isTerminal() && p.metadata().deletionTimestamp() == null
          && !TemplateNodes.isDaemonSetPod(p)) {
        live.computeIfAbsent(p.spec().nodeName(), k -> new HashSet<>()).add(p.metadata().key());
      }
    }
    Map<String, Seen> next = new HashMap<>();
    for (Node n : nodes) {
      if (!n.isReady()) {
        continue;
      }
      Set<String> on = live.getOrDefault(n.name(), Set.of());
      Seen before = seen.get(n.name());
      if (before == null) {
        next.put(n.name(), new Seen(on, initialized(n, now)));
      } else {
        next.put(n.name(), before.pods().equals(on) ? before : new Seen(on, now));
      }
    }
    seen.clear();
    seen.putAll(next);
  }

  /**
   * Whether {@code node} may be consolidated at {@code now}: {@code after} is {@code null} ({@code Never}): no; 0: yes;
   * else once {@code after} has passed since its last pod event (Karpenter's {@code IsUnderConsolidateAfter}).
   */
  boolean consolidatable(String node, Instant now, @Nullable Duration after) {
    if (after == null) {
      return false;
    }
    if (after.isZero()) {
      return true;
    }
    Seen s = seen.get(node);
    return s != null && !now.isBefore(s.lastEvent().plus(after));
  }

  /** When {@code n} became Ready (its Ready condition's transition time), or {@code now} when unknown or later. */
  private static Instant initialized(Node n, Instant now) {
    NodeCondition ready = n.status().condition(NodeCondition.READY);
    Instant at = ready == null ? null : ready.lastTransitionTime();
    return at == null || at.isAfter(now) ? now : at;
  }
}
