package io.fleetkit.storage.scheduling;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The claim names a pod mounts, each once, in the order of its volumes. */
final class PodClaims {
  private PodClaims() {}

  static List<String> of(Pod pod) {
    List<Volume> volumes = pod.spec().volumes();
    if (volumes.isEmpty()) {
      return List.of();
    }
    Set<String> names = new LinkedHashSet<>();
    for (Volume v : volumes) {
      VolumeSource.PersistentVolumeClaim c = v.claim();
      if (c != null) {
        names.add(c.claimName());
      }
    }
    return names.isEmpty() ? List.of() : new ArrayList<>(names);
  }
}
