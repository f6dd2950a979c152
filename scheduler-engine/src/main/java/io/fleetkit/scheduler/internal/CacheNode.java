package io.fleetkit.scheduler.internal;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.resource.ResourceList;
import org.jspecify.annotations.Nullable;

/**
 * The cache's mutable bookkeeping for one node: its pods (bound and assumed), their summed requests, and its place in
 * the generation-ordered list that makes snapshots cost O(changed nodes). A node may be a placeholder ({@code node}
 * null) while pods reference it before it is added or after it is removed. Confined to the scheduler's lock.
 */
final class CacheNode {
  final String name;
  /** When this entry was created, counting from 1: the cache's node order, in which snapshots place nodes. */
  final long order;
  @Nullable Node node;
  final PodVector pods = new PodVector();
  final PodVector withAffinity = new PodVector();
  final PodVector withAnti = new PodVector();
  RequestedSum requested = RequestedSum.EMPTY;
  /** {@code requested}'s standard amounts, kept here (a field this node's bind writes anyway) rather than read back. */
  long requestedCpu;
  long requestedMem;
  long requestedStorage;
  long nonZeroCpu;
  long nonZeroMem;
  long generation;
  /** Neighbours in the cache's list, most recently changed first. */
  @Nullable CacheNode prev;
  @Nullable CacheNode next;
  /**
   * The position last placed or found in the snapshot the cache keeps up to date, or -1: a hint, checked against that
   * snapshot's orders, as a removal shifts later positions without visiting their nodes.
   */
  int snapshotIndex = -1;
  /** Whether that snapshot holds this node. */
  boolean inPlaced;
  /** Whether the node is on the cache's list of nodes added or removed since that snapshot was brought up to date. */
  boolean membershipQueued;
  private @Nullable SnapshotNodeInfo view;

  CacheNode(String name, long order) {
    this.name = name;
    this.order = order;
  }

  void addPod(PodInfo p) {
    pods.add(p);
    // the engine's pods carry the flags (an assumed pod's bound copy is made only when read)
    EnginePodInfo e = p instanceof EnginePodInfo epi ? epi : null;
    if (e != null ? e.hasAffinity() : NodeInfos.hasAffinity(p.pod())) {
      withAffinity.add(p);
    }
    if (e != null ? e.hasRequiredAntiAffinity() : NodeInfos.hasRequiredAntiAffinity(p.pod())) {
      withAnti.add(p);
    }
    ResourceList r = p.requests();
    requested = requested.plus(r);
    requestedCpu = RequestedSum.add(requestedCpu, r.milliCpu());
    requestedMem = RequestedSum.add(requestedMem, r.memoryBytes());
    requestedStorage = RequestedSum.add(requestedStorage, r.ephemeralStorageBytes());
    nonZeroCpu += p.nonZeroMilliCpu();
    nonZeroMem += p.nonZeroMemory();
  }

  /** Removes the pod with {@code key}; returns whether it was here. */
  boolean removePod(String key) {
    PodInfo removed = pods.remove(key);
    if (removed == null) {
      return false;
    }
    withAffinity.remove(key);
    withAnti.remove(key);
    ResourceList r = removed.requests();
    requested = requested.minus(r);
    requestedCpu = RequestedSum.subtract(requestedCpu, r.milliCpu());
    requestedMem = RequestedSum.subtract(requestedMem, r.memoryBytes());
    requestedStorage = RequestedSum.subtract(requestedStorage, r.ephemeralStorageBytes());
    nonZeroCpu -= removed.nonZeroMilliCpu();
    nonZeroMem -= removed.nonZeroMemory();
    return true;
  }

  boolean hasAffinityPods() {
    return !withAffinity.isEmpty();
  }

  boolean hasAntiAffinityPods() {
    return !withAnti.isEmpty();
  }

  /** An immutable view at the current generation (cached until the next change). Requires a node. */
  NodeInfo view() {
    SnapshotNodeInfo v = view;
    if (v == null || v.generation() != generation) {
      Node n = java.util.Objects.requireNonNull(node, "node");
      v = v != null && v.node() == n
          ? new SnapshotNodeInfo(v, pods.snapshot(), withAffinity.snapshot(), withAnti.snapshot(), requested,
              requestedCpu, requestedMem, requestedStorage, nonZeroCpu, nonZeroMem, generation)
          : new SnapshotNodeInfo(n, pods.snapshot(), withAffinity.snapshot(), withAnti.snapshot(), requested,
              requestedCpu, requestedMem, requestedStorage, nonZeroCpu, nonZeroMem, generation);
      view = v;
    }
    return v;
  }
}
