package io.fleetkit.api.framework;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.PodAffinity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Factory for simple immutable {@link NodeInfo}s (tests, tools, preemption dry runs). */
public final class NodeInfos {
  private NodeInfos() {}

  /** A NodeInfo holding exactly {@code pods}, with their requests summed. */
  public static NodeInfo of(Node node, List<PodInfo> pods) {
    return new Simple(node, pods, 0);
  }

  /** Whether the pod has any pod affinity or anti-affinity term. */
  public static boolean hasAffinity(Pod pod) {
    var a = pod.spec().affinity();
    return a != null && (nonEmpty(a.podAffinity()) || nonEmpty(a.podAntiAffinity()));
  }

  /** Whether the pod has a required anti-affinity term. */
  public static boolean hasRequiredAntiAffinity(Pod pod) {
    var a = pod.spec().affinity();
    return a != null && a.podAntiAffinity() != null
        && !a.podAntiAffinity().requiredDuringSchedulingIgnoredDuringExecution().isEmpty();
  }

  private static boolean nonEmpty(PodAffinity p) {
    return p != null && !p.isEmpty();
  }

  private static final class Simple implements NodeInfo {
    private final Node node;
    private final List<PodInfo> pods;
    private final List<PodInfo> withAffinity;
    private final List<PodInfo> withAnti;
    private final ResourceList requested;
    private final long nonZeroCpu;
    private final long nonZeroMem;
    private final long generation;

    Simple(Node node, List<PodInfo> pods, long generation) {
      this.node = Objects.requireNonNull(node, "node");
      this.pods = List.copyOf(pods);
      List<PodInfo> aff = new ArrayList<>();
      List<PodInfo> anti = new ArrayList<>();
      ResourceList sum = ResourceList.EMPTY;
      long cpu = 0;
      long mem = 0;
      for (PodInfo p : this.pods) {
        sum = sum.add(p.requests());
        cpu += p.nonZeroMilliCpu();
        mem += p.nonZeroMemory();
        if (hasAffinity(p.pod())) {
          aff.add(p);
        }
        if (hasRequiredAntiAffinity(p.pod())) {
          anti.add(p);
        }
      }
      this.withAffinity = List.copyOf(aff);
      this.withAnti = List.copyOf(anti);
      this.requested = sum;
      this.nonZeroCpu = cpu;
      this.nonZeroMem = mem;
      this.generation = generation;
    }

    @Override public Node node() { return node; }
    @Override public String name() { return node.metadata().name(); }
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
      return "NodeInfo(" + name() + ", " + pods.size() + " pods)";
    }
  }
}
