package io.fleetkit.benchmarks.generator;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.PodGroup;
import java.util.ArrayList;
import java.util.List;

/**
 * Gang workloads in the spirit of scheduler_perf's podgroup/gangscheduling cases: nodes with 8 GPUs, 32 CPUs and
 * 128 GiB; gangs of 4 to 8 pods (cycling), even gangs asking 1 GPU per pod, odd gangs CPU only (2 CPUs), every pod
 * 4 GiB; {@code minMember} is the gang's size. Deterministic.
 */
public final class GangWorkloads {
  private static final ResourceList NODE = ResourceList.builder().put("cpu", Quantity.of(32))
      .put("memory", Quantity.ofBytes(128L << 30)).put("pods", Quantity.of(110))
      .put("nvidia.com/gpu", Quantity.of(8)).build();
  private static final ResourceList GPU_POD = ResourceList.builder().put("cpu", Quantity.of(1))
      .put("memory", Quantity.ofBytes(4L << 30)).put("nvidia.com/gpu", Quantity.of(1)).build();
  private static final ResourceList CPU_POD = ResourceList.builder().put("cpu", Quantity.of(2))
      .put("memory", Quantity.ofBytes(4L << 30)).build();

  /** The cluster and gangs of one run. */
  public record Case(List<Node> nodes, List<PodGroup> groups, List<Pod> pods) {}

  private GangWorkloads() {}

  public static Case of(int nodeCount, int gangCount) {
    List<Node> nodes = new ArrayList<>(nodeCount);
    for (int i = 0; i < nodeCount; i++) {
      nodes.add(Node.builder().name("node-" + i).label("kubernetes.io/hostname", "node-" + i).capacity(NODE)
          .allocatable(NODE).ready().build());
    }
    List<PodGroup> groups = new ArrayList<>(gangCount);
    List<Pod> pods = new ArrayList<>();
    for (int g = 0; g < gangCount; g++) {
      int size = 4 + g % 5;
      String name = "gang-" + g;
      groups.add(PodGroup.builder().namespace("bench").name(name).minMember(size).build());
      ResourceList r = g % 2 == 0 ? GPU_POD : CPU_POD;
      for (int m = 0; m < size; m++) {
        pods.add(Pod.builder().namespace("bench").name(name + "-" + m).podGroup(name).container("main", "trainer", r, r)
            .build());
      }
    }
    return new Case(List.copyOf(nodes), List.copyOf(groups), List.copyOf(pods));
  }
}
