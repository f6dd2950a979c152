package io.fleetkit.api.internal;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;

/**
 * The GPU rules of {@link GpuRequests}: a share ({@value GpuRequests#MILLI}) is 1..999 thousandths of one device in
 * total, is never combined with whole devices ({@value GpuRequests#WHOLE}), and the accepted-models annotation has
 * no empty entry. Allocation-free for pods that ask for no GPU.
 */
public final class GpuChecks {
  private GpuChecks() {}

  public static void check(ObjectMeta metadata, PodSpec spec, String path, Violations v) {
    String models = metadata.annotations().get(GpuRequests.MODELS_ANNOTATION);
    if (models != null) {
      for (String m : models.split("\\|", -1)) {
        if (m.isBlank() || !m.strip().equals(m)) {
          v.add("metadata.annotations[" + GpuRequests.MODELS_ANNOTATION + "]",
              "must be GPU model names separated by '|', without empty entries or spaces", models);
          break;
        }
      }
    }
    containers(spec.containers(), path + ".containers", v);
    containers(spec.initContainers(), path + ".initContainers", v);
  }

  private static void containers(List<Container> list, String path, Violations v) {
    long milliSum = 0;
    boolean milliSeen = false;
    boolean wholeSeen = false;
    boolean bad = false;
    for (int i = 0; i < list.size(); i++) {
      ResourceList r = list.get(i).resources().requests();
      if (r.has(GpuRequests.WHOLE) && r.get(GpuRequests.WHOLE).signum() > 0) {
        wholeSeen = true;
      }
      if (!r.has(GpuRequests.MILLI)) {
        continue;
      }
      milliSeen = true;
      Quantity q = r.get(GpuRequests.MILLI);
      String field = path + "[" + i + "].resources.requests." + GpuRequests.MILLI;
      if (q.signum() <= 0 || q.value() >= GpuRequests.MILLI_PER_DEVICE) {
        v.add(field, "must be between 1 and 999 (thousandths of one GPU; ask for whole GPUs with "
            + GpuRequests.WHOLE + ")", q);
        bad = true;
      }
      milliSum += q.value();
    }
    if (milliSeen && wholeSeen) {
      v.add(path + "[*].resources", "must not combine " + GpuRequests.MILLI + " with " + GpuRequests.WHOLE
          + ": a pod takes either whole GPUs or a share of one GPU", null);
    }
    if (!bad && milliSum >= GpuRequests.MILLI_PER_DEVICE) {
      v.add(path + "[*].resources.requests." + GpuRequests.MILLI,
          "must sum to at most 999 over the pod's containers (a share of ONE GPU)", milliSum);
    }
  }
}
