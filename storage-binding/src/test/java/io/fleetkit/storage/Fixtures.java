package io.fleetkit.storage;

import io.fleetkit.api.core.ClaimReference;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeMode;
import io.fleetkit.api.core.PersistentVolumePhase;
import io.fleetkit.api.core.PersistentVolumeSpec;
import io.fleetkit.api.core.PersistentVolumeStatus;
import io.fleetkit.api.core.VolumeNodeAffinity;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/** Builders for test volumes, claims and nodes. */
public final class Fixtures {
  public static final PersistentVolumeAccessMode RWO = PersistentVolumeAccessMode.ReadWriteOnce;
  public static final PersistentVolumeAccessMode ROX = PersistentVolumeAccessMode.ReadOnlyMany;
  public static final PersistentVolumeAccessMode RWX = PersistentVolumeAccessMode.ReadWriteMany;

  private Fixtures() {}

  /** An Available volume; {@code uid} doubles as upstream's UID (the identity index_test.go checks). */
  public static PersistentVolume pv(String uid, String name, String size, List<PersistentVolumeAccessMode> modes,
      UnaryOperator<PersistentVolumeSpec.Builder> spec) {
    return pv(uid, name, size, modes, Map.of(), PersistentVolumePhase.Available, spec);
  }

  public static PersistentVolume pv(String uid, String name, String size, List<PersistentVolumeAccessMode> modes,
      Map<String, String> labels, PersistentVolumePhase phase, UnaryOperator<PersistentVolumeSpec.Builder> spec) {
    PersistentVolumeSpec.Builder b = PersistentVolumeSpec.builder().storage(size).accessModes(modes);
    return new PersistentVolume(ObjectMeta.builder().name(name).uid(uid).labels(labels).build(),
        spec.apply(b).build(), PersistentVolumeStatus.of(phase));
  }

  /** A claim {@code myns/claim01} asking for {@code size} with ROX+RWO, as upstream's {@code makePVC}. */
  public static PersistentVolumeClaim makePvc(String size, UnaryOperator<PersistentVolumeClaimSpec.Builder> spec) {
    return pvc("myns", "claim01", size, spec);
  }

  public static PersistentVolumeClaim pvc(String ns, String name, String size,
      UnaryOperator<PersistentVolumeClaimSpec.Builder> spec) {
    PersistentVolumeClaimSpec.Builder b = PersistentVolumeClaimSpec.builder().storage(size)
        .accessModes(List.of(ROX, RWO));
    return PersistentVolumeClaim.of(ObjectMeta.builder().namespace(ns).name(name).uid(ns + "-" + name).build(),
        spec.apply(b).build());
  }

  public static PersistentVolumeClaim withName(PersistentVolumeClaim c, String name) {
    return c.withMetadata(c.metadata().toBuilder().name(name).uid("").build());
  }

  public static PersistentVolume withClaimRef(PersistentVolume pv, @Nullable ClaimReference ref) {
    return pv.withSpec(pv.spec().withClaimRef(ref));
  }

  public static Node node(String name, Map<String, String> labels) {
    return Node.builder().name(name).labels(labels).build();
  }

  public static VolumeNodeAffinity affinity(String key, String value) {
    return TopologyLabels.affinity(key, value);
  }

  public static UnaryOperator<PersistentVolumeSpec.Builder> mode(PersistentVolumeMode m) {
    return b -> b.volumeMode(m);
  }
}
