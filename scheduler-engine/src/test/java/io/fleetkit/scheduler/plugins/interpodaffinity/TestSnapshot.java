package io.fleetkit.scheduler.plugins.interpodaffinity;

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

/**
 * A test-only {@link Snapshot} over {@link NodeInfos#of}, like upstream's {@code cache.NewSnapshot(pods, nodes)}: pods
 * go to the node named by {@code spec.nodeName}; pods on a node not in the list are dropped (they have no topology).
 */
final class TestSnapshot implements Snapshot {
  private final List<NodeInfo> nodes;
  private final Map<String, NodeInfo> byName = new LinkedHashMap<>();

  private TestSnapshot(List<NodeInfo> nodes) {
    this.nodes = List.copyOf(nodes);
    for (NodeInfo n : nodes) {
      byName.put(n.name(), n);
    }
  }

  /** A snapshot of these node views, in order (tests that keep unchanged views across snapshots). */
  static TestSnapshot ofInfos(List<NodeInfo> infos) {
    return new TestSnapshot(infos);
  }

  static TestSnapshot of(List<Pod> pods, List<Node> nodes) {
    Map<String, List<PodInfo>> byNode = new LinkedHashMap<>();
    for (Node n : nodes) {
      byNode.put(n.metadata().name(), new ArrayList<>());
    }
    for (Pod p : pods) {
      List<PodInfo> list = byNode.get(p.spec().nodeName());
      if (list != null) {
        list.add(PodInfos.of(p));
      }
    }
    List<NodeInfo> infos = new ArrayList<>();
    for (Node n : nodes) {
      infos.add(NodeInfos.of(n, byNode.get(n.metadata().name())));
    }
    return new TestSnapshot(infos);
  }

  @Override
  public List<NodeInfo> nodes() {
    return nodes;
  }

  @Override
  public List<NodeInfo> nodesWithAffinityPods() {
    return nodes.stream().filter(n -> !n.podsWithAffinity().isEmpty()).toList();
  }

  @Override
  public List<NodeInfo> nodesWithRequiredAntiAffinityPods() {
    return nodes.stream().filter(n -> !n.podsWithRequiredAntiAffinity().isEmpty()).toList();
  }

  @Override
  public @Nullable NodeInfo get(String nodeName) {
    return byName.get(nodeName);
  }

  @Override
  public int size() {
    return nodes.size();
  }

  NodeInfo node(String name) {
    NodeInfo n = byName.get(Fixtures.nodeName(name));
    if (n == null) {
      throw new IllegalArgumentException("no node " + name);
    }
    return n;
  }
}
