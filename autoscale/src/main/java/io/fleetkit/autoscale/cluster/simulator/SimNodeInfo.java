package io.fleetkit.autoscale.cluster.simulator;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.scheduling.Taint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An immutable node view of a {@link SimulatedCluster}: a change makes a new view with a fresh, globally unique
 * generation, so that plugins caching per node generation never see stale data. Thread-safe.
 */
final class SimNodeInfo implements NodeInfo {
  private static final AtomicLong GENERATIONS = new AtomicLong();

  private final Node node;
  private final List<PodInfo> pods;
  private final List<PodInfo> withAffinity;
  private final List<PodInfo> withAnti;
  private final ResourceList requested;
  private final long nonZeroCpu;
  private final long nonZeroMem;
  private final long generation;

  private SimNodeInfo(Node node, List<PodInfo> pods, List<PodInfo> withAffinity, List<PodInfo> withAnti,
      ResourceList requested, long nonZeroCpu, long nonZeroMem) {
    this.node = node;
    this.pods = pods;
    this.withAffinity = withAffinity;
    this.withAnti = withAnti;
    this.requested = requested;
    this.nonZeroCpu = nonZeroCpu;
    this.nonZeroMem = nonZeroMem;
    this.generation = GENERATIONS.incrementAndGet();
  }

  static SimNodeInfo empty(Node node) {
    return new SimNodeInfo(node, List.of(), List.of(), List.of(), ResourceList.EMPTY, 0, 0);
  }

  /** {@code node} with {@code pods} (in that order), built at once: the same view as adding them one by one. */
  static SimNodeInfo of(Node node, List<PodInfo> pods) {
    if (pods.isEmpty()) {
      return empty(node);
    }
    List<PodInfo> affinity = new ArrayList<>();
    List<PodInfo> anti = new ArrayList<>();
    ResourceList requested = ResourceList.EMPTY;
    long cpu = 0;
    long mem = 0;
    for (PodInfo p : pods) {
      if (NodeInfos.hasAffinity(p.pod())) {
        affinity.add(p);
      }
      if (NodeInfos.hasRequiredAntiAffinity(p.pod())) {
        anti.add(p);
      }
      requested = requested.add(p.requests());
      cpu += p.nonZeroMilliCpu();
      mem += p.nonZeroMemory();
    }
    return new SimNodeInfo(node, java.util.Collections.unmodifiableList(new ArrayList<>(pods)),
        affinity.isEmpty() ? List.of() : java.util.Collections.unmodifiableList(affinity),
        anti.isEmpty() ? List.of() : java.util.Collections.unmodifiableList(anti), requested, cpu, mem);
  }

  SimNodeInfo withPod(PodInfo p) {
    return new SimNodeInfo(node, append(pods, p),
        NodeInfos.hasAffinity(p.pod()) ? append(withAffinity, p) : withAffinity,
        NodeInfos.hasRequiredAntiAffinity(p.pod()) ? append(withAnti, p) : withAnti,
        requested.add(p.requests()), nonZeroCpu + p.nonZeroMilliCpu(), nonZeroMem + p.nonZeroMemory());
  }

  /** This view without the pod keyed {@code podKey}; {@code this} when it is not here. */
  SimNodeInfo withoutPod(String podKey) {
    PodInfo found = null;
    for (PodInfo p : pods) {
      if (p.key().equals(podKey)) {
        found = p;
        break;
      }
    }
    if (found == null) {
      return this;
    }
    PodInfo gone = found;
    return new SimNodeInfo(node, remove(pods, gone), remove(withAffinity, gone), remove(withAnti, gone),
        requested.subtract(gone.requests()), nonZeroCpu - gone.nonZeroMilliCpu(), nonZeroMem - gone.nonZeroMemory());
  }

  private static List<PodInfo> append(List<PodInfo> list, PodInfo p) {
    List<PodInfo> out = new ArrayList<>(list.size() + 1);
    out.addAll(list);
    out.add(p);
    return java.util.Collections.unmodifiableList(out);
  }

  private static List<PodInfo> remove(List<PodInfo> list, PodInfo p) {
    if (!list.contains(p)) {
      return list;
    }
    List<PodInfo> out = new ArrayList<>(list);
    out.remove(p);
    return java.util.Collections.unmodifiableList(out);
  }

  @Override public Node node() { return node; }
  @Override public String name() { return node.metadata().name(); }
  @Override public Map<String, String> labels() { return node.metadata().labels(); }
  @Override public ResourceList allocatable() { return node.allocatable(); }
  @Override public ResourceList requested() { return requested; }
  @Override public long nonZeroRequestedMilliCpu() { return nonZeroCpu; }
  @Override public long nonZeroRequestedMemory() { return nonZeroMem; }
  @Override public List<PodInfo> pods() { return pods; }
  @Override public int podCount() { return pods.size(); }
  @Override public List<Taint> taints() { return node.spec().taints(); }
  @Override public List<PodInfo> podsWithAffinity() { return withAffinity; }
  @Override public List<PodInfo> podsWithRequiredAntiAffinity() { return withAnti; }
  @Override public long generation() { return generation; }

  @Override
  public String toString() {
    return "SimNodeInfo(" + name() + ", " + pods.size() + " pods)";
  }
}
