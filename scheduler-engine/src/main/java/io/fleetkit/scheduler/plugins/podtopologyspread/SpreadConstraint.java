package io.fleetkit.scheduler.plugins.podtopologyspread;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.Requirement;
import io.fleetkit.api.labels.Selector;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.scheduling.NodeInclusionPolicy;
import io.fleetkit.api.scheduling.RequiredNodeAffinity;
import io.fleetkit.api.scheduling.Taints;
import io.fleetkit.api.scheduling.TopologySpreadConstraint;
import io.fleetkit.api.scheduling.UnsatisfiableConstraintAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A topology spread constraint compiled for one pod (upstream's internal {@code topologySpreadConstraint}): the
 * label selector parsed and merged with the pod's {@code matchLabelKeys} values, {@code minDomains} defaulted to 1.
 */
record SpreadConstraint(int maxSkew, String topologyKey, Selector selector, int minDomains,
    NodeInclusionPolicy nodeAffinityPolicy, NodeInclusionPolicy nodeTaintsPolicy) {
  static final SpreadConstraint[] NONE = new SpreadConstraint[0];

  /** Whether this is a per-node topology ({@code kubernetes.io/hostname}), which scoring counts per node. */
  boolean isHostname() {
    return PodTopologySpreadArgs.LABEL_HOSTNAME.equals(topologyKey);
  }

  /**
   * Whether {@code node} is an eligible domain member for this constraint (upstream
   * {@code matchNodeInclusionPolicies}): Honor for node affinity requires the pod's nodeSelector and required node
   * affinity to match; Honor for taints requires every NoSchedule/NoExecute taint to be tolerated.
   */
  boolean matchNodeInclusionPolicies(Pod pod, NodeInfo node, RequiredNodeAffinity affinity) {
    if (nodeAffinityPolicy == NodeInclusionPolicy.Honor && !affinity.match(node.name(), node.labels())) {
      return false;
    }
    return nodeTaintsPolicy != NodeInclusionPolicy.Honor
        || Taints.findMatchingUntoleratedTaint(node.node().spec().taints(), pod.spec().tolerations(),
            Taints.NO_SCHEDULE_OR_NO_EXECUTE).isEmpty();
  }

  /** Whether {@code labels} hold every constraint's topology key (upstream nodeLabelsMatchSpreadConstraints). */
  static boolean nodeHasAllKeys(Map<String, String> labels, SpreadConstraint[] constraints) {
    for (SpreadConstraint c : constraints) {
      if (!labels.containsKey(c.topologyKey)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Pods among {@code pods} in namespace {@code ns}, not terminating, whose labels match {@code selector} (upstream
   * countPodsMatchSelector). Allocation-free.
   */
  static int countMatching(List<PodInfo> pods, Selector selector, String ns) {
    if (selector.matchesNothing()) {
      return 0;
    }
    int count = 0;
    for (int i = 0, n = pods.size(); i < n; i++) {
      Pod p = pods.get(i).pod();
      if (p.metadata().deletionTimestamp() == null && ns.equals(p.metadata().namespace())
          && selector.matches(p.metadata().labels())) {
        count++;
      }
    }
    return count;
  }

  /**
   * Compiles the {@code constraints} with {@code action} (upstream filterTopologySpreadConstraints): the selector
   * parsed (or {@code override}, the workload selector of default constraints) and ANDed with the pod's values of
   * {@code matchLabelKeys}; minDomains defaults to 1.
   *
   * @throws IllegalArgumentException if a label selector is invalid
   */
  static SpreadConstraint[] compile(List<TopologySpreadConstraint> constraints, Map<String, String> podLabels,
      UnsatisfiableConstraintAction action, @Nullable Selector override) {
    List<SpreadConstraint> out = new ArrayList<>(constraints.size());
    for (TopologySpreadConstraint c : constraints) {
      if (c.whenUnsatisfiable() != action) {
        continue;
      }
      Selector selector = override != null ? override : withMatchLabelKeys(
          Selector.fromLabelSelector(c.labelSelector()), c.matchLabelKeys(), podLabels);
      out.add(new SpreadConstraint(c.maxSkew(), c.topologyKey(), selector,
          c.minDomains() == null ? 1 : c.minDomains(), c.nodeAffinityPolicy(), c.nodeTaintsPolicy()));
    }
    return out.toArray(NONE);
  }

  /** ANDs the pod's values of {@code matchLabelKeys} into {@code selector} (upstream mergeLabelSetWithSelector). */
  private static Selector withMatchLabelKeys(Selector selector, List<String> matchLabelKeys,
      Map<String, String> podLabels) {
    if (matchLabelKeys.isEmpty() || selector.matchesNothing()) {
      return selector;
    }
    Map<String, String> matchLabels = new TreeMap<>();
    for (String key : matchLabelKeys) {
      String value = podLabels.get(key);
      if (value != null) {
        matchLabels.put(key, value);
      }
    }
    if (matchLabels.isEmpty()) {
      return selector;
    }
    List<Requirement> merged = new ArrayList<>(Selector.fromSet(matchLabels).requirements());
    merged.addAll(selector.requirements());
    return Selector.of(merged);
  }

}
