package io.fleetkit.api.framework;

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
   * max(sum of containers and sidecars, largest init phase), pod-level requests taking precedence, plus overhead.
   * See {@link io.fleetkit.api.core.PodSpec#nonZeroRequests()}, where it is computed.
   *
   * @return {milliCpu, memoryBytes}
   */
  public static long[] nonZeroRequests(Pod pod) {
    return pod.spec().nonZeroRequests();
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
