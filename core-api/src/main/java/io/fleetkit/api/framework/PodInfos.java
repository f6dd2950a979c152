package io.fleetkit.api.framework;

import io.fleetkit.api.core.Container;
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

  /**
   * kube's non-zero requests for scoring ({@code PodRequests} with {@code NonMissingContainerRequests}): each
   * container (and init container) missing a cpu or memory request counts 100m / 200Mi; then the usual
   * max(sum of containers and sidecars, largest init phase) + overhead.
   *
   * @return {milliCpu, memoryBytes}
   */
  public static long[] nonZeroRequests(Pod pod) {
    long cpu = 0;
    long mem = 0;
    for (Container c : pod.spec().containers()) {
      cpu += nonZeroCpu(c);
      mem += nonZeroMem(c);
    }
    long sidecarCpu = 0;
    long sidecarMem = 0;
    long initCpu = 0;
    long initMem = 0;
    for (Container c : pod.spec().initContainers()) {
      long ccpu = nonZeroCpu(c);
      long cmem = nonZeroMem(c);
      if (c.isRestartable()) {
        cpu += ccpu;
        mem += cmem;
        sidecarCpu += ccpu;
        sidecarMem += cmem;
        initCpu = Math.max(initCpu, sidecarCpu);
        initMem = Math.max(initMem, sidecarMem);
      } else {
        initCpu = Math.max(initCpu, sidecarCpu + ccpu);
        initMem = Math.max(initMem, sidecarMem + cmem);
      }
    }
    ResourceList overhead = pod.spec().overhead();
    return new long[] {Math.max(cpu, initCpu) + overhead.milliCpu(), Math.max(mem, initMem) + overhead.memoryBytes()};
  }

  private static long nonZeroCpu(Container c) {
    ResourceList r = c.resources().requests();
    return r.has("cpu") ? r.milliCpu() : DEFAULT_MILLI_CPU_REQUEST;
  }

  private static long nonZeroMem(Container c) {
    ResourceList r = c.resources().requests();
    return r.has("memory") ? r.memoryBytes() : DEFAULT_MEMORY_REQUEST;
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
      long[] nonZero = nonZeroRequests(pod);
      this.nonZeroCpu = nonZero[0];
      this.nonZeroMem = nonZero[1];
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
