package io.fleetkit.scheduler.plugins.podtopologyspread;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreFilterPlugin.PreFilterExtensions;
import io.fleetkit.api.framework.Status;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Preemption dry-run updates of the PreFilter state (upstream AddPod/RemovePod/updateWithPod): a pod in the
 * incoming pod's namespace, matching a constraint's selector, added to or removed from an eligible node changes that
 * domain's count and, exactly, the global minimum. Copy-on-write: the state read from the cycle state is never
 * changed; a changed copy is written back, so states shared by {@code CycleState.copy()} stay intact. Thread-safe.
 */
final class DryRunUpdates implements PreFilterExtensions {

  @Override
  public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo other, NodeInfo node) {
    return update(state, podToSchedule.pod(), other.pod(), node, 1);
  }

  @Override
  public Status removePod(CycleState state, PodInfo podToSchedule, PodInfo other, NodeInfo node) {
    return update(state, podToSchedule.pod(), other.pod(), node, -1);
  }

  private static Status update(CycleState state, Pod preemptor, Pod updated, NodeInfo node, int delta) {
    PreFilterState s = state.read(PodTopologySpreadPlugin.PRE_FILTER_KEY);
    if (s == null) {
      return PodTopologySpreadPlugin.NO_PRE_FILTER_STATE;
    }
    Map<String, String> labels = node.labels();
    if (s.constraints.length == 0 || !updated.metadata().namespace().equals(preemptor.metadata().namespace())
        || !SpreadConstraint.nodeHasAllKeys(labels, s.constraints)) {
      return Status.success();
    }
    @Nullable PreFilterState copy = null;
    for (int i = 0; i < s.constraints.length; i++) {
      SpreadConstraint c = s.constraints[i];
      if (!c.selector().matches(updated.metadata().labels())
          || !c.matchNodeInclusionPolicies(preemptor, node, s.affinity)) {
        continue;
      }
      if (copy == null) {
        copy = s.copy();
      }
      copy.domains[i].add(labels.get(c.topologyKey()), delta);
    }
    if (copy != null) {
      state.write(PodTopologySpreadPlugin.PRE_FILTER_KEY, copy);
    }
    return Status.success();
  }
}
