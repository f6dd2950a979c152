package io.fleetkit.scheduler.plugins.podtopologyspread;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.scheduling.NodeInclusionPolicy;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The per-pod queueing hints of {@link PodTopologySpreadPlugin}: upstream's {@code isSchedulableAfterPodChange} and
 * {@code isSchedulableAfterNodeChange} ({@code pkg/scheduler/framework/plugins/podtopologyspread/plugin.go}), over the
 * pending pod's hard constraints (its own, or the defaults). Stateless; thread-safe.
 */
final class SpreadQueueingHints {
  private SpreadQueueingHints() {}

  /**
   * Upstream's {@code involvedInTopologySpreading}: {@code incoming} is the pending pod itself, or a bound pod in its
   * namespace (the only pods the constraints count).
   */
  static boolean involved(Pod incoming, Pod pending) {
    return incoming.metadata().key().equals(pending.metadata().key())
        || (incoming.isBound() && incoming.metadata().namespace().equals(pending.metadata().namespace()));
  }

  /**
   * A pod was added ({@code before} null), updated or deleted ({@code after} null); both are involved (see
   * {@link #involved}). Added or deleted: yes when a constraint's selector matches its labels. Updated: yes when the
   * pending pod itself gained tolerations and a constraint honours taints, or the labels changed so that a
   * constraint's selector starts or stops matching.
   */
  static boolean afterPodChange(Pod pending, SpreadConstraint[] constraints, @Nullable Pod before,
      @Nullable Pod after) {
    if (before != null && after != null) {
      if (after.metadata().key().equals(pending.metadata().key())
          && !after.spec().tolerations().equals(before.spec().tolerations()) && honoursTaints(constraints)) {
        return true;
      }
      Map<String, String> was = before.metadata().labels();
      Map<String, String> is = after.metadata().labels();
      if (was.equals(is)) {
        return false;
      }
      for (SpreadConstraint c : constraints) {
        if (c.selector().matches(was) != c.selector().matches(is)) {
          return true;
        }
      }
      return false;
    }
    Pod changed = after != null ? after : Objects.requireNonNull(before, "before or after");
    for (SpreadConstraint c : constraints) {
      if (c.selector().matches(changed.metadata().labels())) {
        return true;
      }
    }
    return false;
  }

  private static boolean honoursTaints(SpreadConstraint[] constraints) {
    for (SpreadConstraint c : constraints) {
      if (c.nodeTaintsPolicy() == NodeInclusionPolicy.Honor) {
        return true;
      }
    }
    return false;
  }

  /**
   * A node was added ({@code before} null) or updated. Added: yes when it holds every topology key. Updated: yes when
   * it starts or stops holding them all, or holds them all and a topology key's value or the taints changed.
   */
  static boolean afterNodeChange(SpreadConstraint[] constraints, @Nullable Node before, Node after) {
    Map<String, String> is = after.metadata().labels();
    boolean matches = SpreadConstraint.nodeHasAllKeys(is, constraints);
    if (before == null) {
      return matches;
    }
    Map<String, String> was = before.metadata().labels();
    if (SpreadConstraint.nodeHasAllKeys(was, constraints) != matches) {
      return true;
    }
    return matches && (topologyValueChanged(was, is, constraints)
        || !before.spec().taints().equals(after.spec().taints()));
  }

  /** Upstream's {@code checkTopologyKeyLabelsChanged}. */
  private static boolean topologyValueChanged(Map<String, String> was, Map<String, String> is,
      SpreadConstraint[] constraints) {
    for (SpreadConstraint c : constraints) {
      if (!Objects.equals(was.get(c.topologyKey()), is.get(c.topologyKey()))) {
        return true;
      }
    }
    return false;
  }
}
