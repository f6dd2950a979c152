package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.Pod;
import java.util.List;

/**
 * What a pod asks of a node's GPUs: {@code whole} devices, or {@code milli} thousandths of one device, from an
 * accepted model (empty: any).
 */
record GpuDemand(int whole, int milli, List<String> models) {
  static final GpuDemand NONE = new GpuDemand(0, 0, List.of());

  GpuDemand {
    models = List.copyOf(models);
  }

  static GpuDemand of(Pod pod) {
    var req = pod.effectiveRequests();
    long whole = GpuRequests.whole(req);
    long milli = GpuRequests.milli(req);
    if (whole <= 0 && milli <= 0) {
      return NONE;
    }
    return new GpuDemand((int) Math.max(0, whole), whole > 0 ? 0 : (int) milli,
        GpuRequests.acceptedModels(pod.metadata()));
  }

  boolean isNone() {
    return whole == 0 && milli == 0;
  }

  boolean isShare() {
    return whole == 0 && milli > 0;
  }

  boolean accepts(String model) {
    return models.isEmpty() || models.contains(model);
  }
}
