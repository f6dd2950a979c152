package io.fleetkit.scheduler.internal;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;

/** The engine's {@link PodInfo}: values computed once per pod object, reused when only the binding changes. */
final class EnginePodInfo implements PodInfo {
  private final Pod pod;
  private final String key;
  private final ResourceList requests;
  private final long nonZeroCpu;
  private final long nonZeroMem;
  private final int priority;

  private EnginePodInfo(Pod pod, String key, ResourceList requests, long nonZeroCpu, long nonZeroMem) {
    this.pod = pod;
    this.key = key;
    this.requests = requests;
    this.nonZeroCpu = nonZeroCpu;
    this.nonZeroMem = nonZeroMem;
    this.priority = pod.priority();
  }

  static EnginePodInfo of(Pod pod) {
    return of(pod, pod.metadata().key());
  }

  /** {@link #of(Pod)} for a caller that has the pod's key already. */
  static EnginePodInfo of(Pod pod, String key) {
    long[] nonZero = PodInfos.nonZeroRequests(pod);
    return new EnginePodInfo(pod, key, pod.effectiveRequests(), nonZero[0], nonZero[1]);
  }

  /** The same pod with another object whose resources and priority are unchanged (binding, status). */
  EnginePodInfo withPod(Pod newPod) {
    return new EnginePodInfo(newPod, key, requests, nonZeroCpu, nonZeroMem);
  }

  @Override public Pod pod() { return pod; }
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
