package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;

/**
 * How busy a node is, for scale-down (upstream {@code simulator/utilization}): requested over allocatable. A GPU node
 * (allocatable {@code nvidia.com/gpu > 0}) is judged by its GPUs alone, as upstream does; other nodes by the larger
 * of CPU and memory. Every pod on the node counts, DaemonSet and mirror pods included (upstream's default); with
 * {@code --ignore-daemonsets-utilization} ({@link #of(NodeInfo, boolean)}) the DaemonSet pods' CPU and memory requests
 * are taken out of the node's allocatable instead (upstream's {@code CalculateUtilizationOfResource}).
 *
 * @param cpu requested / allocatable CPU (0 when none is allocatable)
 * @param memory requested / allocatable memory
 * @param gpu requested / allocatable GPUs, whole devices plus {@code fleetkit.io/gpu-milli} shares
 * @param gpuNode whether the node has GPUs
 */
public record NodeUtilization(double cpu, double memory, double gpu, boolean gpuNode) {

  /** The utilization of {@code node}'s pods, every pod counted. */
  public static NodeUtilization of(NodeInfo node) {
    return of(node, false);
  }

  /**
   * The utilization of {@code node}'s pods; with {@code ignoreDaemonSetPods} the CPU and memory requests of its
   * DaemonSet pods ({@link TemplateNodes#isDaemonSetPod}) are subtracted from the allocatable rather than counted as
   * requested, as upstream's {@code --ignore-daemonsets-utilization} (GPUs alike, as upstream's {@code Calculate}
   * passes the option to the GPU's utilization too).
   */
  public static NodeUtilization of(NodeInfo node, boolean ignoreDaemonSetPods) {
    ResourceList alloc = node.allocatable();
    long cpuReq = 0;
    long memReq = 0;
    long gpuMilli = 0;
    long dsCpu = 0;
    long dsMem = 0;
    long dsGpuMilli = 0;
    for (PodInfo p : node.pods()) {
      ResourceList r = p.requests();
      if (ignoreDaemonSetPods && TemplateNodes.isDaemonSetPod(p.pod())) {
        dsCpu += r.milliCpu();
        dsMem += r.memoryBytes();
        dsGpuMilli += GpuRequests.whole(r) * GpuRequests.MILLI_PER_DEVICE + GpuRequests.milli(r);
        continue;
      }
      cpuReq += r.milliCpu();
      memReq += r.memoryBytes();
      gpuMilli += GpuRequests.whole(r) * GpuRequests.MILLI_PER_DEVICE + GpuRequests.milli(r);
    }
    long gpuAlloc = GpuRequests.whole(alloc);
    return new NodeUtilization(ratio(cpuReq, alloc.milliCpu() - dsCpu), ratio(memReq, alloc.memoryBytes() - dsMem),
        gpuAlloc == 0 ? 0 : ratio(gpuMilli, gpuAlloc * GpuRequests.MILLI_PER_DEVICE - dsGpuMilli), gpuAlloc > 0);
  }

  private static double ratio(long requested, long allocatable) {
    return allocatable <= 0 ? 0 : (double) requested / allocatable;
  }

  /** What scale-down compares to its threshold: GPU utilization on GPU nodes, else max(cpu, memory). */
  public double value() {
    return gpuNode ? gpu : Math.max(cpu, memory);
  }
}
