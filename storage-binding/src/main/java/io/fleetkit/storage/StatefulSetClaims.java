package io.fleetkit.storage;

import io.fleetkit.api.apps.ClaimTemplate;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeResourceRequirements;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The claims a StatefulSet's replica gets from its {@code volumeClaimTemplates}, as upstream's StatefulSet
 * controller makes them: one claim per template named {@code <template>-<statefulset>-<ordinal>}, in the set's
 * namespace, labelled with the template's labels and the set's selector {@code matchLabels}, and the pod's volume of
 * the template's name pointing at it. A claim follows its ordinal: a re-created pod gets the same claims back.
 * Stateless and thread-safe; the controller that creates the claims lives elsewhere.
 */
public final class StatefulSetClaims {
  private StatefulSetClaims() {}

  /** {@code <template>-<statefulset>-<ordinal>}. */
  public static String claimName(ClaimTemplate template, StatefulSet set, int ordinal) {
    checkOrdinal(set, ordinal);
    return template.claimName(set.metadata().name(), ordinal);
  }

  /**
   * The claims for the replica with {@code ordinal}, one per template, in template order.
   *
   * @throws IllegalArgumentException if {@code ordinal} is negative or a template names an unknown access mode
   * @throws io.fleetkit.api.ValidationException if a template yields an invalid claim (e.g. no storage request)
   */
  public static List<PersistentVolumeClaim> claimsFor(StatefulSet set, int ordinal) {
    checkOrdinal(set, ordinal);
    List<PersistentVolumeClaim> out = new ArrayList<>();
    for (ClaimTemplate t : set.spec().volumeClaimTemplates()) {
      Map<String, String> labels = new LinkedHashMap<>(t.labels());
      labels.putAll(set.spec().selector().matchLabels());
      ObjectMeta meta = ObjectMeta.builder().namespace(set.metadata().namespace())
          .name(t.claimName(set.metadata().name(), ordinal)).labels(labels).build();
      PersistentVolumeClaimSpec spec = PersistentVolumeClaimSpec.builder()
          .accessModes(accessModes(set, t))
          .resources(new VolumeResourceRequirements(t.requests(), ResourceList.EMPTY))
          .storageClassName(t.storageClassName())
          .build();
      out.add(PersistentVolumeClaim.of(meta, spec));
    }
    return List.copyOf(out);
  }

  /**
   * {@code spec} with one volume per template (replacing a volume of the same name) mounting the replica's claim,
   * as upstream's {@code updateStorage}.
   */
  public static PodSpec withClaimVolumes(PodSpec spec, StatefulSet set, int ordinal) {
    checkOrdinal(set, ordinal);
    Map<String, Volume> byName = new LinkedHashMap<>();
    for (Volume v : spec.volumes()) {
      byName.put(v.name(), v);
    }
    for (ClaimTemplate t : set.spec().volumeClaimTemplates()) {
      byName.put(t.name(), Volume.persistentVolumeClaim(t.name(), t.claimName(set.metadata().name(), ordinal)));
    }
    return spec.toBuilder().volumes(new ArrayList<>(byName.values())).build();
  }

  private static List<PersistentVolumeAccessMode> accessModes(StatefulSet set, ClaimTemplate t) {
    List<PersistentVolumeAccessMode> modes = new ArrayList<>();
    for (String m : t.accessModes()) {
      try {
        modes.add(PersistentVolumeAccessMode.valueOf(m));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("statefulset " + set.metadata().key() + ": volumeClaimTemplate "
            + t.name() + " accessModes value \"" + m + "\" must be one of ReadWriteOnce, ReadOnlyMany, "
            + "ReadWriteMany, ReadWriteOncePod", e);
      }
    }
    return modes;
  }

  private static void checkOrdinal(StatefulSet set, int ordinal) {
    if (ordinal < 0) {
      throw new IllegalArgumentException("statefulset " + set.metadata().key() + ": ordinal " + ordinal
          + " must not be negative");
    }
  }
}
