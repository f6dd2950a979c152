package io.fleetkit.api.scheduler;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import java.util.Objects;

/** Factory for simple immutable {@link PodInfo}s (tests, tools, custom engines). */
public final class PodInfos {
  /** kube's non-zero defaults for scoring (pkg/scheduler/util: DefaultMilliCPURequest, DefaultMemoryRequest). */
  public static final long DEFAULT_MILLI_CPU_REQUEST = 100;
  public static final long DEFAULT_MEMORY_REQUEST = 200L * 1024 * 1024;

  private PodInfos() {}

  /** A PodInfo computing effective and non-zero requests once. */
  public static PodInfo of(Pod pod) {
    return new Simple(pod);
  }

  private static final class Simple implements PodInfo {
    private final Pod pod;
    private final String key;
    private final ResourceList requests;
    private final long nonZeroCpu;
    private final long nonZeroMem;
    private final int priority;

    Simple(Pod pod) {
      this.pod = Objects.requireNonNull(pod, "pod");
      this.key = pod.metadata().key();
      this.requests = pod.effectiveRequests();
      long cpu = requests.milliCpu();
      long mem = requests.memoryBytes();
      this.nonZeroCpu = requests.has("cpu") ? cpu : DEFAULT_MILLI_CPU_REQUEST;
      this.nonZeroMem = requests.has("memory") ? mem : DEFAULT_MEMORY_REQUEST;
      this.priority = pod.priority();
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
}
