package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeMount;
import io.fleetkit.api.core.VolumeSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Pod specs compared as the cluster autoscaler compares them when it groups similar pods (upstream's
 * {@code PodSpecSemanticallyEqual}, {@code dropProjectedVolumesAndMounts}): without their projected volumes and the
 * containers' mounts of them. Every pod's {@code kube-api-access-*} volume has a name of its own, and projected
 * volumes do not change where a pod fits, so pods of one controller stay one group. Upstream also leaves out the
 * hostname; here specs differing in it stay apart. Pure functions; thread-safe.
 */
final class PodSpecEquivalence {
  private PodSpecEquivalence() {}

  /** {@code spec} without its projected volumes and the mounts of them; {@code spec} itself when it has none. */
  static PodSpec semantic(PodSpec spec) {
    Set<String> projected = null;
    for (Volume v : spec.volumes()) {
      if (v.source() instanceof VolumeSource.Projected) {
        if (projected == null) {
          projected = new HashSet<>(2);
        }
        projected.add(v.name());
      }
    }
    if (projected == null) {
      return spec;
    }
    List<Volume> volumes = new ArrayList<>(spec.volumes().size());
    for (Volume v : spec.volumes()) {
      if (!projected.contains(v.name())) {
        volumes.add(v);
      }
    }
    return spec.withVolumes(withoutMounts(spec.containers(), projected),
        withoutMounts(spec.initContainers(), projected), volumes);
  }

  /** Whether {@code a} and {@code b} are equal but for their projected volumes and the mounts of them. */
  static boolean equal(PodSpec a, PodSpec b) {
    return a == b || a.equals(b) || semantic(a).equals(semantic(b));
  }

  private static List<Container> withoutMounts(List<Container> list, Set<String> volumes) {
    List<Container> out = new ArrayList<>(list.size());
    for (Container c : list) {
      List<VolumeMount> mounts = new ArrayList<>(c.volumeMounts().size());
      for (VolumeMount m : c.volumeMounts()) {
        if (!volumes.contains(m.name())) {
          mounts.add(m);
        }
      }
      out.add(mounts.size() == c.volumeMounts().size() ? c : c.withVolumeMounts(mounts));
    }
    return out;
  }
}
