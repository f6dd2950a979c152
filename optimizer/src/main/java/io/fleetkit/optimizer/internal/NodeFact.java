package io.fleetkit.optimizer.internal;

import java.util.List;
import java.util.Map;

/**
 * One node as the solver sees it: what is left for the planned pods (CPU, memory, per-device free thousandths) after
 * the pods that stay put, its labels, and the defragmentation costs of using it.
 */
public final class NodeFact {
  final int index;
  final String name;
  final long cpuFree;
  final long memFree;
  final int[] deviceFree;
  final List<String> models;
  final Map<String, String> labels;
  /** Soft cost of the node holding any planned pod (defragmentation: free whole nodes); 0 when placing. */
  final long useCost;
  /** Soft cost per device a planned pod touches (defragmentation: free whole GPUs); 0 when placing. */
  final long deviceUseCost;

  NodeFact(int index, String name, long cpuFree, long memFree, int[] deviceFree, List<String> models,
      Map<String, String> labels, long useCost, long deviceUseCost) {
    this.index = index;
    this.name = name;
    this.cpuFree = cpuFree;
    this.memFree = memFree;
    this.deviceFree = deviceFree.clone();
    this.models = List.copyOf(models);
    this.labels = Map.copyOf(labels);
    this.useCost = useCost;
    this.deviceUseCost = deviceUseCost;
  }

  public String name() {
    return name;
  }

  int freeGpuMilli() {
    int s = 0;
    for (int f : deviceFree) {
      s += f;
    }
    return s;
  }

  @Override
  public String toString() {
    return name;
  }
}
