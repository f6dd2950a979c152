package io.fleetkit.scheduler.plugins.helper;

import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.Snapshot;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Test-only {@link Snapshot} over a node list (a subclass may {@linkplain #replace replace} it). */
public class SimpleSnapshot implements Snapshot {
  private List<NodeInfo> nodes;

  public SimpleSnapshot(List<NodeInfo> nodes) {
    this.nodes = List.copyOf(nodes);
  }

  /** Replaces the node list (for a snapshot that follows a changing cluster). */
  protected final void replace(List<NodeInfo> views) {
    nodes = List.copyOf(views);
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
    for (NodeInfo n : nodes) {
      if (n.name().equals(nodeName)) {
        return n;
      }
    }
    return null;
  }

  @Override
  public int size() {
    return nodes.size();
  }
}
