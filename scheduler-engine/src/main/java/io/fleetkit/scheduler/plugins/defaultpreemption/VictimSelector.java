package io.fleetkit.scheduler.plugins.defaultpreemption;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FrameworkHandle;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Status;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Finds the fewest, least important victims on one node (upstream {@code SelectVictimsOnNode}): remove every pod the
 * preemptor may preempt, check that the preemptor then fits, and add back (reprieve) as many as possible, the
 * PDB-violating ones first, each group from the most important pod down. Each fit check counts the pods nominated to
 * the node with a priority at least the preemptor's, as upstream's ({@code RunFilterPluginsWithNominatedPods}). Not
 * thread-safe: one per attempt.
 */
final class VictimSelector {
  static final String NO_VICTIMS = "No preemption victims found for incoming pod";

  private final FrameworkHandle handle;
  private final DefaultPreemptionPlugin.VictimEligibility eligibility;
  private final Comparator<PodInfo> importance;

  VictimSelector(FrameworkHandle handle, DefaultPreemptionPlugin.VictimEligibility eligibility,
      Comparator<PodInfo> importance) {
    this.handle = handle;
    this.eligibility = eligibility;
    this.importance = importance;
  }

  /** The outcome on one node: success with victims, or the status that rules the node out. */
  record Selection(Status status, List<PodInfo> victims, int numPdbViolations) {
    static Selection rejected(Status status) {
      return new Selection(status, List.of(), 0);
    }
  }

  /** Whether the preemptor may evict {@code victim} (lower priority, and the custom rule). */
  boolean preemptible(NodeInfo node, PodInfo victim, PodInfo preemptor) {
    return victim.priority() < preemptor.priority() && eligibility.test(node, victim, preemptor);
  }

  /**
   * Selects victims on {@code nodeInfo} with {@code state}, a copy of the cycle state this call may update through the
   * PreFilter extensions.
   */
  Selection select(CycleState state, PodInfo preemptor, NodeInfo nodeInfo, PdbViolations pdbs) {
    List<PodInfo> pods = nodeInfo.pods();
    int n = pods.size();
    int first = 0;
    while (first < n && !preemptible(nodeInfo, pods.get(first), preemptor)) {
      first++;
    }
    if (first == n) {
      // Nothing to remove: the node is unchanged, no need to filter it again (nor to copy its pods).
      return Selection.rejected(Status.unresolvable(NO_VICTIMS));
    }
    List<PodInfo> potential = new ArrayList<>();
    List<PodInfo> kept = new ArrayList<>(pods.subList(0, first));
    potential.add(pods.get(first));
    for (int i = first + 1; i < n; i++) {
      PodInfo p = pods.get(i);
      (preemptible(nodeInfo, p, preemptor) ? potential : kept).add(p);
    }
    Node node = nodeInfo.node();
    NodeInfo current = NodeInfos.of(node, kept);
    // The extensions see the node with every potential victim removed (upstream removes them one by one; the
    // in-tree extensions only read the node's labels, so the final view is equivalent and costs one NodeInfo).
    for (PodInfo p : potential) {
      Status s = handle.runPreFilterExtensionRemovePod(state, preemptor, p, current);
      if (!s.isSuccess()) {
        return Selection.rejected(asError(s));
      }
    }
    // If the pod does not fit even without every lower-priority pod, this node cannot help. (Affinity of the
    // preemptor to one of the victims is deliberately not considered, as upstream.)
    Status fits = handle.runFilterPluginsWithNominatedPods(state, preemptor, current);
    if (!fits.isSuccess()) {
      return Selection.rejected(fits);
    }
    potential.sort(importance);
    PdbViolations.Split split = pdbs.split(potential);
    List<PodInfo> victims = new ArrayList<>();
    int numViolating = 0;
    // Reprieve the PDB-violating victims first, then the others, most important first.
    for (int g = 0; g < 2; g++) {
      boolean violatingGroup = g == 0;
      for (PodInfo p : violatingGroup ? split.violating() : split.nonViolating()) {
        List<PodInfo> with = new ArrayList<>(kept.size() + 1);
        with.addAll(kept);
        with.add(p);
        NodeInfo added = NodeInfos.of(node, with);
        Status s = handle.runPreFilterExtensionAddPod(state, preemptor, p, added);
        if (!s.isSuccess()) {
          return Selection.rejected(asError(s));
        }
        if (handle.runFilterPluginsWithNominatedPods(state, preemptor, added).isSuccess()) {
          kept = with;
          current = added;
          continue;
        }
        s = handle.runPreFilterExtensionRemovePod(state, preemptor, p, current);
        if (!s.isSuccess()) {
          return Selection.rejected(asError(s));
        }
        victims.add(p);
        if (violatingGroup) {
          numViolating++;
        }
      }
    }
    if (!split.violating().isEmpty() && !split.nonViolating().isEmpty()) {
      victims.sort(importance); // keep victims ordered by importance across both groups
    }
    return new Selection(Status.success(), victims, numViolating);
  }

  /** An extension failure aborts the node with an error, as upstream's {@code AsStatus(status.AsError())}. */
  private static Status asError(Status s) {
    return s.code() == Status.Code.ERROR ? s : Status.error(s.message());
  }
}
