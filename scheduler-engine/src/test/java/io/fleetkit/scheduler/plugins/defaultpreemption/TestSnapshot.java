package io.fleetkit.scheduler.plugins.defaultpreemption;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.Snapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A snapshot of {@code nodes} (in order) holding the bound {@code pods}, as kube's {@code internalcache.NewSnapshot}. */
final class TestSnapshot implements Snapshot {
  private final Map<String, NodeInfo> byName = new LinkedHashMap<>();

  TestSnapshot(List<Node> nodes, List<Pod> pods) {
    for (Node n : nodes) {
      List<PodInfo> on = new ArrayList<>();
      for (Pod p : pods) {
        if (p.spec().nodeName().equals(n.metadata().name())) {
          on.add(PodInfos.of(p));
        }
      }
      byName.put(n.metadata().name(), NodeInfos.of(n, on));
    }
  }

  @Override
  public List<NodeInfo> nodes() {
    return List.copyOf(byName.values());
  }

  @Override
  public List<NodeInfo> nodesWithAffinityPods() {
    return nodes().stream().filter(n -> !n.podsWithAffinity().isEmpty()).toList();
  }

  @Override
  public List<NodeInfo> nodesWithRequiredAntiAffinityPods() {
    return nodes().stream().filter(n -> !n.podsWithRequiredAntiAffinity().isEmpty()).toList();
  }

  @Override
  public @Nullable NodeInfo get(String nodeName) {
    return byName.get(nodeName);
  }

  @Override
  public int size() {
    return byName.size();
  }
}
