package io.fleetkit.lab.gpu;

import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.ScheduleResult;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.scheduler.plugins.gpu.GpuPlugins;
import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import io.fleetkit.scheduler.plugins.gpu.GpuWorkload;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * The openb trace replayed through the real engine (every default filter, the GPU plugins, one policy plugin as the
 * only score): GPU nodes, pods shuffled by seed, each scheduled on arrival with no retry, until the arrived GPU
 * demand reaches the cluster's GPU capacity. Returns the GPU allocation (%) at that point.
 */
final class EngineTraceReplay {
  private EngineTraceReplay() {}

  static boolean DEBUG = Boolean.getBoolean("debugReplay");

  static Node node(TraceNode t) {
    Node.Builder b = Node.builder().name(t.name()).capacity(ResourceList.builder()
        .put("cpu", Quantity.ofMilli(t.milliCpu())).put("memory", Quantity.ofBytes(t.memoryMiB() << 20))
        .put("pods", Quantity.of(1001)).build()).ready();
    for (int i = 0; i < t.gpus(); i++) {
      b.gpu(GpuDevice.of(t.name() + "-" + i, t.model(), 16384));
    }
    return b.build();
  }

  static Pod pod(TracePod t) {
    ResourceList.Builder r = ResourceList.builder().put("cpu", Quantity.ofMilli(t.milliCpu()))
        .put("memory", Quantity.ofBytes(t.memoryMiB() << 20));
    if (t.numGpu() > 0 && t.gpuMilli() == 1000) {
      r.put(GpuRequests.WHOLE, Quantity.of(t.numGpu()));
    } else if (t.numGpu() > 0 && t.gpuMilli() > 0) {
      r.put(GpuRequests.MILLI, Quantity.of(t.gpuMilli()));
    }
    Pod.Builder b = Pod.builder().name(t.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'))
        .container("c", "img", r.build());
    if (!t.models().isEmpty() && t.numGpu() > 0) {
      b.annotation(GpuRequests.MODELS_ANNOTATION, String.join("|", t.models()));
    }
    return b.build();
  }

  static double run(List<TraceNode> traceNodes, List<TracePod> tracePods, GpuPolicy policy, long seed) {
    List<TraceNode> gpuNodes = traceNodes.stream().filter(n -> n.gpus() > 0)
        .sorted(Comparator.comparing(TraceNode::name)).toList();
    List<Pod> all = tracePods.stream().sorted(Comparator.comparing(TracePod::name)).map(EngineTraceReplay::pod)
        .toList();
    GpuWorkload m = GpuWorkload.typicalOf(all);
    List<Pod> arrival = new ArrayList<>(all);
    Collections.shuffle(arrival, new Random(seed));
    long capacity = 1000L * gpuNodes.stream().mapToInt(TraceNode::gpus).sum();
    GpuPlugins gpu = GpuPlugins.builder().policy(policy).workload(m).seed(seed).build();
    long used = 0;
    long arrived = 0;
    int failures = 0;
    try (Scheduler s = Scheduler.builder().registry(gpu.registry(PluginRegistry.defaults()))
        .profile(gpu.policyOnlyProfile()).binder(gpu.binder(new RecordingBinder())).parallelism(1)
        .seed(seed).build()) {
      gpuNodes.forEach(n -> s.addNode(node(n)));
      for (Pod p : arrival) {
        long demand = gpuMilli(p);
        if (arrived + demand > capacity) {
          break;
        }
        arrived += demand;
        s.addPod(p);
        for (ScheduleResult r : s.runUntilIdle()) {
          if (r.isBound()) {
            used += demand;
          } else {
            if (DEBUG && failures++ < 15) {
              System.err.println("FAIL at " + (100.0 * arrived / capacity) + "% used " + (100.0 * used / capacity)
                  + " " + p.spec().containers().get(0).resources() + " " + r.message());
            }
            s.removePod(r.podKey());
          }
        }
      }
    }
    return 100.0 * used / capacity;
  }

  /** A binder that accepts every binding. */
  static final class RecordingBinder implements io.fleetkit.api.framework.Binder {
    @Override
    public io.fleetkit.api.framework.Status bind(Pod pod, String nodeName) {
      return io.fleetkit.api.framework.Status.success();
    }
  }

  static long gpuMilli(Pod p) {
    var req = p.effectiveRequests();
    long whole = GpuRequests.whole(req);
    return whole > 0 ? 1000 * whole : GpuRequests.milli(req);
  }
}
