package io.fleetkit.scheduler.plugins.noderesources;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreScorePlugin;
import io.fleetkit.api.framework.ScorePlugin;
import io.fleetkit.api.framework.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runs PreScore (optionally) and Score over nodes, like upstream's score tests. */
final class ScoreHarness {
  private final List<Node> nodes = new ArrayList<>();
  private final Map<String, List<PodInfo>> pods = new LinkedHashMap<>();

  static ScoreHarness nodes(Node... nodes) {
    ScoreHarness h = new ScoreHarness();
    h.nodes.addAll(List.of(nodes));
    return h;
  }

  /** An existing pod bound to {@code nodeName}. */
  ScoreHarness on(String nodeName, PodInfo pod) {
    pods.computeIfAbsent(nodeName, k -> new ArrayList<>()).add(pod);
    return this;
  }

  List<NodeInfo> nodeInfos() {
    return Fixtures.snapshot(nodes, pods);
  }

  <P extends PreScorePlugin & ScorePlugin> List<Long> score(P plugin, PodInfo pod, boolean runPreScore) {
    CycleState state = new Fixtures.MapCycleState();
    List<NodeInfo> infos = nodeInfos();
    if (runPreScore) {
      Status s = plugin.preScore(state, pod, infos);
      if (!s.isSuccess()) {
        throw new AssertionError("PreScore returned " + s);
      }
    }
    List<Long> out = new ArrayList<>();
    for (NodeInfo n : infos) {
      out.add(plugin.score(state, pod, n));
    }
    return out;
  }

  <P extends PreScorePlugin & ScorePlugin> List<Long> score(P plugin, PodInfo pod) {
    return score(plugin, pod, true);
  }
}
