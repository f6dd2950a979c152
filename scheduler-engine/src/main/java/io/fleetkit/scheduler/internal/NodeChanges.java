package io.fleetkit.scheduler.internal;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.meta.ConditionStatus;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether a node update can make a rejected pod schedulable, as kube-scheduler's
 * {@code framework.NodeSchedulingPropertiesChange} ({@code pkg/scheduler/framework/events.go}): the update counts
 * when it changes {@code spec.unschedulable}, the allocatable resources, the labels, the taints, a condition's
 * status (by type; heartbeat and transition times, reasons and messages are ignored) or the annotations, plus,
 * FleetKit's own, the GPU devices the GPU plugins place on. Anything else (a kubelet's heartbeat, addresses,
 * capacity beside allocatable) is read by no plugin, so such an update moves no pod.
 */
final class NodeChanges {
  private NodeChanges() {}

  /** Upstream {@code NodeSchedulingPropertiesChange} is not empty. */
  static boolean schedulingPropertiesChanged(Node before, Node after) {
    if (before == after) {
      return false;
    }
    return before.spec().unschedulable() != after.spec().unschedulable()
        || !before.status().allocatable().equals(after.status().allocatable())
        || !before.metadata().labels().equals(after.metadata().labels())
        || !before.spec().taints().equals(after.spec().taints())
        || conditionsChanged(before.status().conditions(), after.status().conditions())
        || !before.metadata().annotations().equals(after.metadata().annotations())
        || !before.status().gpus().equals(after.status().gpus());
  }

  /** Upstream {@code extractNodeConditionsChange}: the conditions as a map of type to status differ. */
  static boolean conditionsChanged(List<NodeCondition> before, List<NodeCondition> after) {
    if (before.size() == after.size()) {
      boolean same = true;
      for (int i = 0; i < before.size() && same; i++) {
        same = before.get(i).type().equals(after.get(i).type())
            && before.get(i).status() == after.get(i).status();
      }
      if (same) {
        return false; // the common case: same conditions in the same order
      }
    }
    return !strip(before).equals(strip(after));
  }

  private static Map<String, ConditionStatus> strip(List<NodeCondition> conditions) {
    Map<String, ConditionStatus> m = new HashMap<>();
    for (NodeCondition c : conditions) {
      m.put(c.type(), c.status());
    }
    return m;
  }
}
