package io.fleetkit.optimizer;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.scheduling.PodGroup;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A batch to place: the cluster's nodes, the pods already running on them (kept where they are, their usage taken
 * off the nodes), the pending pods to place and the PodGroups the pods belong to (label {@value Pod#POD_GROUP_LABEL}).
 *
 * @param nodes unique names
 * @param running pods with {@code spec.nodeName} naming one of {@code nodes}
 * @param pending pods without {@code spec.nodeName}; keys ({@code namespace/name}) unique across running and pending
 * @param podGroups every group a running or pending pod names, unique keys
 * <p>The constructor throws {@link IllegalArgumentException}, naming the object and rule, when one of these does not
 * hold.
 */
public record BatchProblem(List<Node> nodes, List<Pod> running, List<Pod> pending, List<PodGroup> podGroups) {
  public BatchProblem {
    nodes = List.copyOf(Objects.requireNonNull(nodes, "nodes"));
    running = List.copyOf(Objects.requireNonNull(running, "running"));
    pending = List.copyOf(Objects.requireNonNull(pending, "pending"));
    podGroups = List.copyOf(Objects.requireNonNull(podGroups, "podGroups"));
    Set<String> nodeNames = new HashSet<>();
    for (Node n : nodes) {
      if (!nodeNames.add(n.name())) {
        throw new IllegalArgumentException("batch problem: node " + n.name() + " is listed twice");
      }
    }
    Set<String> groups = new HashSet<>();
    for (PodGroup g : podGroups) {
      if (g.spec().minMember() < 1) {
        throw new IllegalArgumentException("batch problem: pod group " + g.metadata().key()
            + ": spec.minMember must be at least 1, got " + g.spec().minMember());
      }
      if (!groups.add(g.metadata().key())) {
        throw new IllegalArgumentException("batch problem: pod group " + g.metadata().key() + " is listed twice");
      }
    }
    Set<String> pods = new HashSet<>();
    for (Pod p : running) {
      String key = p.metadata().key();
      if (p.spec().nodeName().isEmpty()) {
        throw new IllegalArgumentException("batch problem: running pod " + key + ": spec.nodeName must be set");
      }
      if (!nodeNames.contains(p.spec().nodeName())) {
        throw new IllegalArgumentException("batch problem: running pod " + key + ": spec.nodeName \""
            + p.spec().nodeName() + "\" is not one of the nodes");
      }
      checkPod(pods, groups, p, "running");
    }
    for (Pod p : pending) {
      if (!p.spec().nodeName().isEmpty()) {
        throw new IllegalArgumentException("batch problem: pending pod " + p.metadata().key()
            + ": spec.nodeName must be empty, got \"" + p.spec().nodeName() + "\"");
      }
      checkPod(pods, groups, p, "pending");
    }
  }

  /** A problem with nothing running and no groups. */
  public static BatchProblem of(List<Node> nodes, List<Pod> pending) {
    return new BatchProblem(nodes, List.of(), pending, List.of());
  }

  private static void checkPod(Set<String> pods, Set<String> groups, Pod p, String what) {
    String key = p.metadata().key();
    if (!pods.add(key)) {
      throw new IllegalArgumentException("batch problem: " + what + " pod " + key + " is listed twice");
    }
    String g = p.podGroupName();
    if (g != null && !g.isEmpty()) {
      String gk = p.metadata().namespace().isEmpty() ? g : p.metadata().namespace() + "/" + g;
      if (!groups.contains(gk)) {
        throw new IllegalArgumentException("batch problem: " + what + " pod " + key + ": label "
            + Pod.POD_GROUP_LABEL + " names pod group " + gk + ", which is not in podGroups");
      }
    }
  }
}
