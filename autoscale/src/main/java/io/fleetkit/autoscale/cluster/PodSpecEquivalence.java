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
 * {@code PodSpecSemanticallyEqual} and {@code sanitizePodSpec}): without their projected volumes and the mounts of
 * them (in containers and init containers), without {@code hostname}, and without the containers' and init
 * containers' {@code env}. Every pod's {@code kube-api-access-*} volume has a name of its own, a StatefulSet gives
 * each pod its own hostname, and controllers put per-pod values into the environment (an indexed Job's completion
 * index); none of these changes where a pod fits, so the pods of one controller stay one group. {@code envFrom} and
 * {@code subdomain} are compared, as upstream compares them. Pure functions; thread-safe.
 */
final class PodSpecEquivalence {
  private PodSpecEquivalence() {}

  /**
   * {@code spec} without its projected volumes and the mounts of them, its hostname and its containers' and init
   * containers' {@code env}; {@code spec} itself when it has none of them.
   */
  static PodSpec semantic(PodSpec spec) {
    Set<String> projected = Set.of();
    for (Volume v : spec.volumes()) {
      if (v.source() instanceof VolumeSource.Projected) {
        if (projected.isEmpty()) {
          projected = new HashSet<>(2);
        }
        projected.add(v.name());
      }
    }
    if (projected.isEmpty() && spec.hostname().isEmpty() && !hasEnv(spec.containers())
        && !hasEnv(spec.initContainers())) {
      return spec;
    }
    List<Volume> volumes = spec.volumes();
    if (!projected.isEmpty()) {
      volumes = new ArrayList<>(spec.volumes().size());
      for (Volume v : spec.volumes()) {
        if (!projected.contains(v.name())) {
          volumes.add(v);
        }
      }
    }
    return spec.toBuilder()
        .containers(sanitized(spec.containers(), projected))
        .initContainers(sanitized(spec.initContainers(), projected))
        .volumes(volumes)
        .hostname("")
        .build();
  }

  /**
   * Whether {@code a} and {@code b} are equal but for their projected volumes and the mounts of them, their hostname
   * and their containers' {@code env}.
   */
  static boolean equal(PodSpec a, PodSpec b) {
    return a == b || a.equals(b) || semantic(a).equals(semantic(b));
  }

  private static boolean hasEnv(List<Container> list) {
    for (Container c : list) {
      if (!c.env().isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** The containers without {@code env} and without their mounts of {@code volumes}; each unchanged one as it is. */
  private static List<Container> sanitized(List<Container> list, Set<String> volumes) {
    List<Container> out = new ArrayList<>(list.size());
    for (Container c : list) {
      Container s = c.env().isEmpty() ? c : c.withEnv(List.of());
      if (!volumes.isEmpty()) {
        List<VolumeMount> mounts = new ArrayList<>(c.volumeMounts().size());
        for (VolumeMount m : c.volumeMounts()) {
          if (!volumes.contains(m.name())) {
            mounts.add(m);
          }
        }
        if (mounts.size() != c.volumeMounts().size()) {
          s = s.withVolumeMounts(mounts);
        }
      }
      out.add(s);
    }
    return out;
  }
}
