package io.fleetkit.storage;

import static io.fleetkit.storage.StoreWrites.ATTEMPTS;
import static io.fleetkit.storage.StoreWrites.YES;
import static io.fleetkit.storage.StoreWrites.annotate;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.ClaimReference;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimCondition;
import io.fleetkit.api.core.PersistentVolumeClaimPhase;
import io.fleetkit.api.core.PersistentVolumeClaimStatus;
import io.fleetkit.api.core.PersistentVolumePhase;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.api.store.ObjectStore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Binds a claim to a volume and undoes a binding, for {@link PersistentVolumeController#bind} and
 * {@link PersistentVolumeController#unbind}: the volume is written first, then the claim, each at the
 * resourceVersion it was read at. Thread-safe.
 */
final class ClaimBinder {
  // Logs under the controller's name, as before this class was split out of it.
  private static final Logger LOG = LoggerFactory.getLogger(PersistentVolumeController.class);

  private final ObjectStore store;
  private final StoreWrites writes;
  private final ProvisioningBackoff backoff;

  ClaimBinder(ObjectStore store, StoreWrites writes, ProvisioningBackoff backoff) {
    this.store = store;
    this.writes = writes;
    this.backoff = backoff;
  }

  /** See {@link PersistentVolumeController#bind}; a bound claim's provisioning backoff is cleared. */
  Optional<String> bind(PersistentVolume volume, PersistentVolumeClaim claim) {
    String what = "binding volume " + volume.metadata().name() + " to claim " + claim.metadata().key();
    PersistentVolume[] reserved = new PersistentVolume[1];
    Optional<String> failure = reserve(volume, claim, what, reserved);
    if (failure.isPresent()) {
      return failure;
    }
    return bindClaim(reserved[0], claim, what);
  }

  /** See {@link PersistentVolumeController#reserve}. */
  Optional<String> reserve(PersistentVolume volume, PersistentVolumeClaim claim) {
    return reserve(volume, claim, "reserving volume " + volume.metadata().name() + " for claim "
        + claim.metadata().key(), new PersistentVolume[1]);
  }

  /** The volume side of a binding: its claim reference and phase Bound; {@code out[0]} is the volume after. */
  private Optional<String> reserve(PersistentVolume volume, PersistentVolumeClaim claim, String what,
      PersistentVolume[] out) {
    PersistentVolume pv = volume;
    try {
      ClaimReference ref = pv.spec().claimRef();
      if (ref != null && !VolumeMatching.isBoundToClaim(pv, claim)) {
        return Optional.of(what + ": the volume is bound to claim " + ref.namespace() + "/" + ref.name());
      }
      if (ref == null || ref.uid().isEmpty()) {
        ObjectMeta meta = ref == null ? annotate(pv.metadata(), StorageAnnotations.BOUND_BY_CONTROLLER, YES)
            : pv.metadata();
        pv = store.update(pv.withMetadata(meta).withSpec(pv.spec().withClaimRef(ClaimReference.to(claim))));
      }
      if (pv.status().phase() != PersistentVolumePhase.Bound) {
        pv = writes.setVolumePhase(pv, PersistentVolumePhase.Bound, "");
      }
    } catch (ConflictException e) {
      return Optional.of(what + ": the volume changed meanwhile (conflict)");
    } catch (NotFoundException e) {
      return Optional.of(what + ": the volume was deleted");
    }
    out[0] = pv;
    return Optional.empty();
  }

  /**
   * The claim side of a binding: {@code spec.volumeName} (set once: the store refuses changing it), with
   * {@code bound-by-controller} when the controller chose the volume, {@code bind-completed}, then the status as
   * upstream's {@code updateClaimStatus} (phase Bound, the volume's access modes, its capacity when the claim becomes
   * Bound) without a {@value PersistentVolumeController#PROVISIONING_FAILED} condition.
   */
  private Optional<String> bindClaim(PersistentVolume pv, PersistentVolumeClaim claim, String what) {
    PersistentVolumeClaim c = claim;
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      try {
        if (!c.spec().volumeName().equals(pv.metadata().name())
            || !c.metadata().annotations().containsKey(StorageAnnotations.BIND_COMPLETED)) {
          ObjectMeta meta = c.metadata();
          if (!c.spec().volumeName().equals(pv.metadata().name())
              && !meta.annotations().containsKey(StorageAnnotations.BOUND_BY_CONTROLLER)) {
            meta = annotate(meta, StorageAnnotations.BOUND_BY_CONTROLLER, YES);
          }
          if (!meta.annotations().containsKey(StorageAnnotations.BIND_COMPLETED)) {
            meta = annotate(meta, StorageAnnotations.BIND_COMPLETED, YES);
          }
          c = store.update(c.withMetadata(meta).withSpec(c.spec().withVolumeName(pv.metadata().name())));
        }
        writeBoundStatus(c, pv);
        backoff.clear(c.metadata().key());
        return Optional.empty();
      } catch (ConflictException e) {
        Optional<PersistentVolumeClaim> latest =
            store.get(PersistentVolumeClaim.class, c.metadata().namespace(), c.metadata().name());
        if (latest.isEmpty()) {
          return Optional.of(what + ": the claim was deleted");
        }
        c = latest.get();
      } catch (NotFoundException e) {
        return Optional.of(what + ": the claim was deleted");
      }
    }
    return Optional.of(what + ": gave up after " + ATTEMPTS + " write conflicts on the claim");
  }

  private void writeBoundStatus(PersistentVolumeClaim c, PersistentVolume pv) {
    PersistentVolumeClaimStatus s = c.status();
    ResourceList capacity = s.phase() == PersistentVolumeClaimPhase.Bound ? s.capacity() : pv.spec().capacity();
    List<PersistentVolumeClaimCondition> conditions = s.conditions().stream()
        .filter(x -> !x.type().equals(PersistentVolumeController.PROVISIONING_FAILED)).toList();
    PersistentVolumeClaimStatus bound = new PersistentVolumeClaimStatus(PersistentVolumeClaimPhase.Bound,
        pv.spec().accessModes(), capacity, conditions);
    if (!bound.equals(s)) {
      store.updateStatus(c.withStatus(bound));
    }
  }

  /**
   * Upstream's {@code unbindVolume}: a volume the controller bound ({@code bound-by-controller}) loses its claim
   * reference and that annotation; a volume the user pre-bound keeps its claim reference without the claim's uid.
   * Then it is set Available.
   *
   * @throws ConflictException if the volume changed since it was read
   * @throws NotFoundException if it was deleted
   */
  void unbindVolume(PersistentVolume pv) {
    PersistentVolume u;
    ClaimReference ref = pv.spec().claimRef();
    if (pv.metadata().annotations().containsKey(StorageAnnotations.BOUND_BY_CONTROLLER) || ref == null) {
      Map<String, String> ann = new LinkedHashMap<>(pv.metadata().annotations());
      ann.remove(StorageAnnotations.BOUND_BY_CONTROLLER);
      u = store.update(pv.withMetadata(pv.metadata().toBuilder().annotations(ann).build())
          .withSpec(pv.spec().withClaimRef(null)));
    } else {
      u = store.update(pv.withSpec(pv.spec().withClaimRef(ClaimReference.of(ref.namespace(), ref.name()))));
    }
    writes.setVolumePhase(u, PersistentVolumePhase.Available, "");
  }
}
