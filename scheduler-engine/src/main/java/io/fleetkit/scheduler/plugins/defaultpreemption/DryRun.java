package io.fleetkit.scheduler.plugins.defaultpreemption;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeToStatus;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Simulates preemption on the potential nodes (upstream {@code findCandidates} and {@code DryRunPreemption}).
 *
 * <p>Nodes are visited from {@code offset}, wrapping around, one at a time (upstream runs them in parallel and stops
 * early; visiting in order is its {@code parallelism = 1} case and makes the outcome reproducible). The run stops
 * once it holds at least one candidate that violates no PodDisruptionBudget and {@code numCandidates} candidates in
 * all; each of the two groups keeps at most {@code numCandidates}. Candidates without violations come first.
 */
final class DryRun {
  private DryRun() {}

  /**
   * What the dry run found.
   *
   * @param nodeStatuses why each evaluated node is not a candidate, in visiting order
   * @param errors messages of the nodes that failed with an error
   */
  record Result(List<Candidate> candidates, Map<String, Status> nodeStatuses, List<String> errors) {
    static final Result EMPTY = new Result(List.of(), Map.of(), List.of());

    /** The errors joined as apimachinery's {@code utilerrors.NewAggregate(errs).Error()}: deduplicated. */
    String aggregateError() {
      Set<String> seen = new LinkedHashSet<>(errors);
      String joined = String.join(", ", seen);
      return seen.size() == 1 ? joined : "[" + joined + "]";
    }
  }

  /**
   * The nodes where preemption might help (upstream {@code NodesForStatusCode(Unschedulable)}): those whose Filter
   * status is UNSCHEDULABLE, not UNSCHEDULABLE_AND_UNRESOLVABLE; nodes absent from {@code statuses} count as its
   * absent code. Keeps the snapshot's order.
   */
  static List<NodeInfo> potentialNodes(List<NodeInfo> allNodes, NodeToStatus statuses) {
    List<NodeInfo> out = new ArrayList<>();
    for (NodeInfo n : allNodes) {
      if (statuses.codeOf(n.name()) == Status.Code.UNSCHEDULABLE) {
        out.add(n);
      }
    }
    return out;
  }

  static Result run(VictimSelector selector, CycleState state, PodInfo pod, List<NodeInfo> potentialNodes,
      PdbViolations pdbs, int offset, int numCandidates) {
    List<Candidate> nonViolating = new ArrayList<>();
    List<Candidate> violating = new ArrayList<>();
    Map<String, Status> statuses = new LinkedHashMap<>();
    List<String> errors = new ArrayList<>(0);
    int n = potentialNodes.size();
    for (int i = 0; i < n; i++) {
      NodeInfo node = potentialNodes.get((offset + i) % n);
      VictimSelector.Selection s = selector.select(state.copy(), pod, node, pdbs);
      Status status = s.status();
      if (status.isSuccess() && !s.victims().isEmpty()) {
        Candidate c = new Candidate(node.name(), s.victims(), s.numPdbViolations());
        List<Candidate> group = c.numPdbViolations() == 0 ? nonViolating : violating;
        if (group.size() < numCandidates) {
          group.add(c);
        }
        if (!nonViolating.isEmpty() && nonViolating.size() + violating.size() >= numCandidates) {
          break;
        }
        continue;
      }
      if (status.isSuccess()) {
        status = Status.error("expected at least one victim pod on node \"" + node.name() + "\"");
      }
      if (status.code() == Status.Code.ERROR) {
        errors.add(status.message());
      }
      statuses.put(node.name(), status);
    }
    List<Candidate> all = new ArrayList<>(nonViolating.size() + violating.size());
    all.addAll(nonViolating);
    all.addAll(violating);
    return new Result(List.copyOf(all), statuses, errors);
  }
}
