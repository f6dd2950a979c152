package io.fleetkit.optimizer;

import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.PodGroup;

/** Small builders for hand-made clusters. */
final class Fixtures {
  private Fixtures() {}

  static Node node(String name, long milliCpu, long memGiB, int gpus) {
    Node.Builder b = Node.builder().name(name).ready()
        .allocatable(ResourceList.builder().put("cpu", milliCpu + "m").put("memory", memGiB + "Gi")
            .put("pods", "110").put(GpuRequests.WHOLE, String.valueOf(gpus)).build());
    for (int i = 0; i < gpus; i++) {
      b.gpu(GpuDevice.of("GPU-" + i, "A100", 81920));
    }
    return b.build();
  }

  static Pod.Builder pod(String name, long milliCpu, long memGiB, int wholeGpus, int gpuMilli) {
    ResourceList.Builder r = ResourceList.builder().put("cpu", milliCpu + "m").put("memory", memGiB + "Gi");
    if (wholeGpus > 0) {
      r.put(GpuRequests.WHOLE, String.valueOf(wholeGpus));
    }
    if (gpuMilli > 0) {
      r.put(GpuRequests.MILLI, String.valueOf(gpuMilli));
    }
    ResourceList req = r.build();
    return Pod.builder().namespace("default").name(name).container("c", "img", req, req);
  }

  static Pod gangPod(String name, String group, int wholeGpus) {
    return pod(name, 1000, 1, wholeGpus, 0).podGroup(group).build();
  }

  static PodGroup group(String name, int minMember) {
    return PodGroup.of("default", name, minMember);
  }
}
