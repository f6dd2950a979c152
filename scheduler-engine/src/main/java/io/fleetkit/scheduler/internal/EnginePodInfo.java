package io.fleetkit.scheduler.internal;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.resource.ResourceList;
import org.jspecify.annotations.Nullable;

/**
 * The engine's {@link PodInfo}: values computed once per pod object, reused when only the binding changes.
 *
 * <p>An assumed pod ({@link #assumedOn}) is the pending pod with {@code spec.nodeName} set, as kube's
 * {@code assumePod} copy. The copy is made when {@link #pod()} is first called, not when the pod is assumed: a
 * scheduler at scale assumes thousands of pods per second and reads few of them before their bound objects arrive
 * (the default profile reads none: the cache needs only the affinity flags, taken from the pending pod, whose
 * affinity the node name does not change). The copy is equal to the one made at assumption: the node name is a
 * validated node's, so {@link Pod#withNodeName} cannot fail later than it would have then. Thread-safe: Filter
 * threads may race to make the copy; each makes an equal immutable pod (whose fields are final) and one is kept.
 */
final class EnginePodInfo implements PodInfo {
  /** The pod object; for an assumed pod, the pending one until {@link #pod()} makes the bound copy. */
  private @Nullable Pod pod;
  private final Pod pending;
  /** The node an assumed pod is bound to in its copy, or {@code null} when {@link #pod} is the object itself. */
  private final @Nullable String assumedNode;
  private final String key;
  private final ResourceList requests;
  private final long nonZeroCpu;
  private final long nonZeroMem;
  private final int priority;
  private final boolean hasAffinity;
  private final boolean hasRequiredAntiAffinity;

  private EnginePodInfo(Pod pod, @Nullable String assumedNode, String key, ResourceList requests, long nonZeroCpu,
      long nonZeroMem, boolean hasAffinity, boolean hasRequiredAntiAffinity) {
    this.pod = assumedNode == null ? pod : null;
    this.pending = pod;
    this.assumedNode = assumedNode;
    this.key = key;
    this.requests = requests;
    this.nonZeroCpu = nonZeroCpu;
    this.nonZeroMem = nonZeroMem;
    this.priority = pod.priority();
    this.hasAffinity = hasAffinity;
    this.hasRequiredAntiAffinity = hasRequiredAntiAffinity;
  }

  static EnginePodInfo of(Pod pod) {
    return of(pod, pod.metadata().key());
  }

  /** {@link #of(Pod)} for a caller that has the pod's key already. */
  static EnginePodInfo of(Pod pod, String key) {
    long[] nonZero = PodInfos.nonZeroRequests(pod);
    return new EnginePodInfo(pod, null, key, pod.effectiveRequests(), nonZero[0], nonZero[1],
        NodeInfos.hasAffinity(pod), NodeInfos.hasRequiredAntiAffinity(pod));
  }

  /** The same pod with another object whose resources, priority and affinity are unchanged (status). */
  EnginePodInfo withPod(Pod newPod) {
    return new EnginePodInfo(newPod, null, key, requests, nonZeroCpu, nonZeroMem, hasAffinity,
        hasRequiredAntiAffinity);
  }

  /**
   * This pod assumed on {@code nodeName}: its {@link #pod()} is {@code pod().withNodeName(nodeName)}, made on first
   * use. {@code nodeName} must be a node's name (so valid as {@code spec.nodeName}).
   */
  EnginePodInfo assumedOn(String nodeName) {
    Pod p = pod();
    return new EnginePodInfo(p, nodeName.equals(p.spec().nodeName()) ? null : nodeName, key, requests, nonZeroCpu,
        nonZeroMem, hasAffinity, hasRequiredAntiAffinity);
  }

  @Override
  public Pod pod() {
    Pod p = pod;
    if (p == null) {
      p = pending.withNodeName(java.util.Objects.requireNonNull(assumedNode));
      pod = p;
    }
    return p;
  }

  /** The pending pod object, for an assumed pod without making its copy (the object the scheduler's binder gets). */
  @Override
  public Pod pendingPod() {
    return pending;
  }

  /** {@link NodeInfos#hasAffinity} of the pod, without making an assumed pod's copy. */
  boolean hasAffinity() {
    return hasAffinity;
  }

  /** {@link NodeInfos#hasRequiredAntiAffinity} of the pod, without making an assumed pod's copy. */
  boolean hasRequiredAntiAffinity() {
    return hasRequiredAntiAffinity;
  }

  @Override public String key() { return key; }
  @Override public ResourceList requests() { return requests; }
  @Override public long nonZeroMilliCpu() { return nonZeroCpu; }
  @Override public long nonZeroMemory() { return nonZeroMem; }
  @Override public int priority() { return priority; }

  @Override
  public String toString() {
    return "PodInfo(" + key + ")";
  }
}
