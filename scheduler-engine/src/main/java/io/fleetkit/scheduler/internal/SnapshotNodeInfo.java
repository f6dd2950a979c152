package io.fleetkit.scheduler.internal;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduler.NodeInfo;
import io.fleetkit.api.scheduler.PodInfo;
import java.util.List;
import java.util.Map;

/** An immutable copy of a {@link CacheNode} at one generation: what plugins see in a cycle. Thread-safe. */
final class SnapshotNodeInfo implements NodeInfo {
  private final Node node;
  private final String name;
  private final List<PodInfo> pods;
  private final List<PodInfo> withAffinity;
  private final List<PodInfo> withAnti;
  private final ResourceList requested;
  private final long nonZeroCpu;
  private final long nonZeroMem;
  private final long generation;

  SnapshotNodeInfo(Node node, List<PodInfo> pods, List<PodInfo> withAffinity, List<PodInfo> withAnti,
      ResourceList requested, long nonZeroCpu, long nonZeroMem, long generation) {
    this.node = node;
    this.name = node.metadata().name();
    this.pods = List.copyOf(pods);
    this.withAffinity = withAffinity.isEmpty() ? List.of() : List.copyOf(withAffinity);
    this.withAnti = withAnti.isEmpty() ? List.of() : List.copyOf(withAnti);
    this.requested = requested;
    this.nonZeroCpu = nonZeroCpu;
    this.nonZeroMem = nonZeroMem;
    this.generation = generation;
  }

  @Override public Node node() { return node; }
  @Override public String name() { return name; }
  @Override public Map<String, String> labels() { return node.metadata().labels(); }
  @Override public ResourceList allocatable() { return node.allocatable(); }
  @Override public ResourceList requested() { return requested; }
  @Override public long nonZeroRequestedMilliCpu() { return nonZeroCpu; }
  @Override public long nonZeroRequestedMemory() { return nonZeroMem; }
  @Override public List<PodInfo> pods() { return pods; }
  @Override public List<PodInfo> podsWithAffinity() { return withAffinity; }
  @Override public List<PodInfo> podsWithRequiredAntiAffinity() { return withAnti; }
  @Override public long generation() { return generation; }

  @Override
  public String toString() {
    return "NodeInfo(" + name + ", " + pods.size() + " pods, gen " + generation + ")";
  }
}
