package io.fleetkit.scheduler.internal;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.scheduling.Taint;
import java.util.List;
import java.util.Map;

/**
 * An immutable copy of a {@link CacheNode} at one generation: what plugins see in a cycle. Thread-safe.
 *
 * <p>The fields plugins read for every node (allocatable, the standard requested amounts, taints, the unschedulable
 * flag, the pod count, the labels) are copied here, so that a plugin touches this one object instead of chasing
 * {@code node -> metadata/spec/status -> ...}: at thousands of nodes per cycle those pointer hops are cache misses
 * and dominate the cycle. The engine's own loops read the same numbers from the snapshot's
 * {@link io.fleetkit.scheduler.nodetable.NodeTable} without touching this object.
 */
final class SnapshotNodeInfo implements NodeInfo {
  private final String name;
  private final Map<String, String> labels;
  private final ResourceList allocatable;
  private final RequestedSum requested;
  private final long requestedCpu;
  private final long requestedMem;
  private final long requestedStorage;
  private final long nonZeroCpu;
  private final long nonZeroMem;
  private final int podCount;
  private final boolean unschedulable;
  private final List<Taint> taints;
  private final long generation;
  private final Node node;
  private final List<PodInfo> pods;
  private final List<PodInfo> withAffinity;
  private final List<PodInfo> withAnti;

  SnapshotNodeInfo(Node node, List<PodInfo> pods, List<PodInfo> withAffinity, List<PodInfo> withAnti,
      RequestedSum requested, long requestedCpu, long requestedMem, long requestedStorage, long nonZeroCpu,
      long nonZeroMem, long generation) {
    this(node, node.metadata().name(), node.metadata().labels(), node.allocatable(), node.spec().unschedulable(),
        node.spec().taints(), pods, withAffinity, withAnti, requested, requestedCpu, requestedMem, requestedStorage,
        nonZeroCpu, nonZeroMem, generation);
  }

  /**
   * The next view of the same node object: its node-derived fields are taken from {@code before} (one object read
   * instead of the node's metadata, spec and status), the pods and sums from the arguments.
   */
  SnapshotNodeInfo(SnapshotNodeInfo before, List<PodInfo> pods, List<PodInfo> withAffinity, List<PodInfo> withAnti,
      RequestedSum requested, long requestedCpu, long requestedMem, long requestedStorage, long nonZeroCpu,
      long nonZeroMem, long generation) {
    this(before.node, before.name, before.labels, before.allocatable, before.unschedulable, before.taints, pods,
        withAffinity, withAnti, requested, requestedCpu, requestedMem, requestedStorage, nonZeroCpu, nonZeroMem,
        generation);
  }

  private SnapshotNodeInfo(Node node, String name, Map<String, String> labels, ResourceList allocatable,
      boolean unschedulable, List<Taint> taints, List<PodInfo> pods, List<PodInfo> withAffinity,
      List<PodInfo> withAnti, RequestedSum requested, long requestedCpu, long requestedMem, long requestedStorage,
      long nonZeroCpu, long nonZeroMem, long generation) {
    this.node = node;
    this.name = name;
    this.labels = labels;
    this.allocatable = allocatable;
    this.unschedulable = unschedulable;
    this.taints = taints;
    this.pods = pods;
    this.podCount = pods.size();
    this.withAffinity = withAffinity;
    this.withAnti = withAnti;
    this.requested = requested;
    this.requestedCpu = requestedCpu;
    this.requestedMem = requestedMem;
    this.requestedStorage = requestedStorage;
    this.nonZeroCpu = nonZeroCpu;
    this.nonZeroMem = nonZeroMem;
    this.generation = generation;
  }

  @Override public Node node() { return node; }
  @Override public String name() { return name; }
  @Override public Map<String, String> labels() { return labels; }
  @Override public ResourceList allocatable() { return allocatable; }
  @Override public ResourceList requested() { return requested.value(); }
  @Override public long requestedMilliCpu() { return requestedCpu; }
  @Override public long requestedMemory() { return requestedMem; }
  @Override public long requestedEphemeralStorage() { return requestedStorage; }
  @Override public long nonZeroRequestedMilliCpu() { return nonZeroCpu; }
  @Override public long nonZeroRequestedMemory() { return nonZeroMem; }
  @Override public List<PodInfo> pods() { return pods; }
  @Override public int podCount() { return podCount; }
  @Override public boolean unschedulable() { return unschedulable; }
  @Override public List<Taint> taints() { return taints; }
  @Override public List<PodInfo> podsWithAffinity() { return withAffinity; }
  @Override public List<PodInfo> podsWithRequiredAntiAffinity() { return withAnti; }
  @Override public long generation() { return generation; }

  @Override
  public String toString() {
    return "NodeInfo(" + name + ", " + pods.size() + " pods, gen " + generation + ")";
  }
}
