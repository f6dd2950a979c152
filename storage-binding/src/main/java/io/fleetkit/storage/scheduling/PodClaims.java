package io.fleetkit.storage.scheduling;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.storage.EphemeralVolumes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The claim names a pod mounts, each once, in the order of its volumes: {@link #of} its PVC volumes' claims (what
 * VolumeZone, VolumeRestrictions and the others read, as upstream's plugins that look at
 * {@code volume.PersistentVolumeClaim} only), {@link #withEphemeral} also the claims of its generic ephemeral
 * volumes (VolumeBinding's {@code GetPodVolumeClaims}).
 */
final class PodClaims {
  /** A claim the pod uses; {@code ephemeral} when a generic ephemeral volume of the pod generates it. */
  record Ref(String name, boolean ephemeral) {}

  private PodClaims() {}

  /** The claims of the PVC volumes and, named {@code <pod>-<volume>}, of the generic ephemeral volumes. */
  static List<Ref> withEphemeral(Pod pod) {
    List<Volume> volumes = pod.spec().volumes();
    if (volumes.isEmpty()) {
      return List.of();
    }
    Map<String, Boolean> names = new LinkedHashMap<>();
    for (Volume v : volumes) {
      VolumeSource.PersistentVolumeClaim c = v.claim();
      if (c != null) {
        names.merge(c.claimName(), false, Boolean::logicalOr);
      } else if (v.ephemeral() != null) {
        names.merge(EphemeralVolumes.claimName(pod, v), true, Boolean::logicalOr);
      }
    }
    List<Ref> out = new ArrayList<>(names.size());
    names.forEach((n, e) -> out.add(new Ref(n, e)));
    return out;
  }

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
