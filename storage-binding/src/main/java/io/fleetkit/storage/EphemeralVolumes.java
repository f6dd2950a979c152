package io.fleetkit.storage;

import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimTemplate;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import java.util.Optional;

/**
 * The claim of a generic ephemeral volume, as upstream's {@code k8s.io/component-helpers/storage/ephemeral}: its
 * name ({@link #claimName}), whether a claim of that name is the pod's ({@link #checkVolumeIsForPod}) and the claim
 * the ephemeral volume controller creates ({@link #claimFor}). Stateless and thread-safe.
 */
public final class EphemeralVolumes {
  private EphemeralVolumes() {}

  /** {@code <pod name>-<volume name>}: upstream's {@code VolumeClaimName}, deterministic and never failing. */
  public static String claimName(Pod pod, Volume volume) {
    return VolumeSource.Ephemeral.claimName(pod.metadata().name(), volume.name());
  }

  /**
   * Upstream's {@code VolumeIsForPod}: the claim must be in the pod's namespace and controlled by the pod (its
   * controller owner reference carries the pod's uid).
   *
   * @return empty when the claim is the pod's, else upstream's error text, informative enough to be shown as it is
   */
  public static Optional<String> checkVolumeIsForPod(Pod pod, PersistentVolumeClaim claim) {
    OwnerReference ref = claim.metadata().controllerRef();
    if (claim.metadata().namespace().equals(pod.metadata().namespace()) && ref != null
        && ref.uid().equals(pod.metadata().uid())) {
      return Optional.empty();
    }
    return Optional.of("PVC " + claim.metadata().namespace() + "/" + claim.metadata().name()
        + " was not created for pod " + pod.metadata().namespace() + "/" + pod.metadata().name()
        + " (pod is not owner)");
  }

  /**
   * The claim upstream's ephemeral volume controller creates for {@code volume} of {@code pod}: named
   * {@link #claimName}, in the pod's namespace, with a controller owner reference to the pod (so that the garbage
   * collector deletes it with the pod) and the template's labels, annotations and spec.
   *
   * @throws IllegalArgumentException if {@code volume} is not a generic ephemeral volume
   * @throws io.fleetkit.api.ValidationException if the claim is invalid (it cannot be for a pod that was built, whose
   *     rules include the template's and the claim name's)
   */
  public static PersistentVolumeClaim claimFor(Pod pod, Volume volume) {
    VolumeSource.Ephemeral e = volume.ephemeral();
    if (e == null) {
      throw new IllegalArgumentException("pod " + pod.metadata().key() + ": volume " + volume.name()
          + " is not a generic ephemeral volume (its source is " + volume.source() + ")");
    }
    PersistentVolumeClaimTemplate t = e.volumeClaimTemplate();
    ObjectMeta meta = ObjectMeta.builder().namespace(pod.metadata().namespace()).name(claimName(pod, volume))
        .ownerReference(OwnerReference.controllerOf(pod)).labels(t.labels()).annotations(t.annotations()).build();
    return PersistentVolumeClaim.of(meta, t.spec());
  }
}
