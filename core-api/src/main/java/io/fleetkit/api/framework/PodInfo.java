package io.fleetkit.api.framework;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;

/**
 * A pod as the scheduler sees it: the immutable {@link Pod} plus values computed once (effective requests, the
 * non-zero requests used for scoring). Thread-safe.
 */
public interface PodInfo {
  Pod pod();

  /**
   * The pod object before the scheduling cycle assumed it on a node: for an assumed pod, the pending pod (without
   * the node name its {@link #pod()} has), which is what a {@link Binder} receives; otherwise {@link #pod()}, as this
   * default returns. Never copies the pod (an assumed pod's {@link #pod()} may make its bound copy on first use).
   */
  default Pod pendingPod() {
    return pod();
  }

  /** {@code namespace/name}. */
  String key();

  /** Effective requests: max(sum of containers, max of init containers) + overhead. */
  ResourceList requests();

  /** Requested milli-CPU for scoring: 100m when the pod requests none (kube's non-zero default). */
  long nonZeroMilliCpu();

  /** Requested memory bytes for scoring: 200Mi when the pod requests none (kube's non-zero default). */
  long nonZeroMemory();

  /** Effective priority ({@code spec.priority}, 0 when unset). */
  int priority();
}
