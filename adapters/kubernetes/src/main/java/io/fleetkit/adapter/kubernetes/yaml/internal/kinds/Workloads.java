package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Selectors;
import io.fleetkit.api.labels.LabelSelector;
import org.jspecify.annotations.Nullable;

/** Parts shared by the workload kinds. */
final class Workloads {
  private Workloads() {}

  /** A required selector; a missing one is reported (and read as matching everything, to go on checking). */
  static LabelSelector selector(io.fabric8.kubernetes.api.model.@Nullable LabelSelector s, String path,
      DocumentContext ctx) {
    if (s == null) {
      ctx.error(path, "is required", null);
      return LabelSelector.EVERYTHING;
    }
    LabelSelector out = Fabric8Selectors.toCore(s, path, ctx);
    return out == null ? LabelSelector.EVERYTHING : out;
  }
}
