package io.fleetkit.scheduler.plugins.helper;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import java.util.List;

/**
 * Test-only builders for plugin tests, standing in for upstream's {@code st.MakePod()} / {@code st.MakeNode()}.
 * FleetKit validates object names as DNS subdomains, so ported cases use lower-case node names ({@code nodeA}
 * becomes {@code node-a}) and a placeholder name where upstream leaves it empty.
 */
public final class PluginFixtures {
  private PluginFixtures() {}

  /** A valid pod builder: namespace default, one container without requests. */
  public static Pod.Builder pod(String name) {
    return Pod.builder().name(name).container("c", "pause", ResourceList.EMPTY);
  }

  public static PodInfo podInfo(Pod pod) {
    return PodInfos.of(pod);
  }

  public static Node.Builder node(String name) {
    return Node.builder().name(name);
  }

  public static NodeInfo nodeInfo(Node node) {
    return NodeInfos.of(node, List.of());
  }

  public static NodeInfo nodeInfo(Node.Builder node) {
    return nodeInfo(node.build());
  }
}
