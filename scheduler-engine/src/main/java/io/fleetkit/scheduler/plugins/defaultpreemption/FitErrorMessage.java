package io.fleetkit.scheduler.plugins.defaultpreemption;

import io.fleetkit.api.framework.Status;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * kube's {@code FitError.Error()} for a preemption that found no candidate:
 * {@code 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for scheduling.} — every reason
 * counted over the nodes, nodes without an explicit status counted under {@code absentReason}, the
 * {@code "<count> <reason>"} strings sorted.
 */
final class FitErrorMessage {
  private FitErrorMessage() {}

  static String format(int numAllNodes, Map<String, Status> nodeStatuses, String absentReason) {
    Map<String, Integer> counts = new HashMap<>();
    for (Status s : nodeStatuses.values()) {
      for (String reason : s.reasons()) {
        counts.merge(reason, 1, Integer::sum);
      }
    }
    if (nodeStatuses.size() < numAllNodes) {
      counts.merge(absentReason, numAllNodes - nodeStatuses.size(), Integer::sum);
    }
    List<String> parts = new ArrayList<>(counts.size());
    counts.forEach((reason, n) -> parts.add(n + " " + reason));
    parts.sort(null);
    StringBuilder sb = new StringBuilder().append("0/").append(numAllNodes).append(" nodes are available:");
    if (!parts.isEmpty()) {
      sb.append(' ').append(String.join(", ", parts)).append('.');
    }
    return sb.toString();
  }
}
