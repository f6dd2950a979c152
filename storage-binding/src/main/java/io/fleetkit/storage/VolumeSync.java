package io.fleetkit.storage;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.ClaimReference;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumePhase;
import io.fleetkit.api.core.PersistentVolumeReclaimPolicy;
import io.fleetkit.api.core.PersistentVolumeSource;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.storage.provision.VolumeProvisioner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The volume side of a {@link PersistentVolumeController} sync, as upstream's {@code syncVolume}: a volume without a
 * claim (or reserved for a claim by name only) is Available; one whose claim is gone (or was re-created with another
 * uid) is Released and reclaimed by its policy (Retain keeps it, Delete deletes it through the provisioner that made
 * it, Recycle fails); one whose claim is bound to it is Bound; one whose claim went to another volume is given back
 * (a dynamically provisioned volume of policy Delete is released and deleted). A volume reserved for a claim that
 * has not bound yet is left to the claim's sync. A conflict or a deleted object ends the sync; the next one retries.
 * Thread-safe.
 */
final class VolumeSync {
  // Logs under the controller's name, as before this class was split out of it.
  private static final Logger LOG = LoggerFactory.getLogger(PersistentVolumeController.class);

  private final ObjectStore store;
  private final Map<String, VolumeProvisioner> provisioners;
  private final StoreWrites writes;
  private final ClaimBinder binder;

  VolumeSync(ObjectStore store, Map<String, VolumeProvisioner> provisioners, StoreWrites writes, ClaimBinder binder) {
    this.store = store;
    this.provisioners = provisioners;
    this.writes = writes;
    this.binder = binder;
  }

  /** Syncs the volume once; returns why the sync failed, empty when it did not. */
  Optional<String> sync(PersistentVolume pv) {
    try {
      syncVolume(pv);
      return Optional.empty();
    } catch (ConflictException | NotFoundException e) {
      LOG.debug("sync of volume {}: {}; the next sync retries", pv.metadata().name(), e.getMessage());
      return Optional.of("sync of volume " + pv.metadata().name() + ": " + e.getMessage());
    }
  }

  private void syncVolume(PersistentVolume pv) {
    ClaimReference ref = pv.spec().claimRef();
    if (ref == null || ref.uid().isEmpty()) {
      // Unused, or reserved for a claim whose sync will bind it.
      setPhase(pv, PersistentVolumePhase.Available);
      return;
    }
    // The store is read directly (no informer cache), so the claim seen is the newest.
    Optional<PersistentVolumeClaim> claim = store.get(PersistentVolumeClaim.class, ref.namespace(), ref.name())
        .filter(c -> c.metadata().uid().equals(ref.uid()));
    if (claim.isEmpty()) {
      // Deleted (or re-created with another uid).
      releaseAndReclaim(pv);
      return;
    }
    PersistentVolumeClaim c = claim.get();
    String volumeName = c.spec().volumeName();
    if (volumeName.isEmpty()) {
      if (VolumeMatching.volumeModeMismatch(c, pv)) {
        // The claim's sync will never pick this volume: say why on both.
        writes.event(pv, Event.WARNING, PersistentVolumeController.VOLUME_MISMATCH,
            "Cannot bind PersistentVolume to requested PersistentVolumeClaim \"" + c.metadata().name()
                + "\" due to incompatible volumeMode.");
        writes.event(c, Event.WARNING, PersistentVolumeController.VOLUME_MISMATCH,
            "Cannot bind PersistentVolume \"" + pv.metadata().name()
                + "\" to requested PersistentVolumeClaim due to incompatible volumeMode.");
      }
      // Otherwise the binding is half done (or the user unbound the claim): the claim's sync completes it.
      return;
    }
    if (volumeName.equals(pv.metadata().name())) {
      setPhase(pv, PersistentVolumePhase.Bound);
      return;
    }
    // The claim is bound to another volume.
    if (pv.metadata().annotations().containsKey(StorageAnnotations.PROVISIONED_BY)
        && pv.spec().persistentVolumeReclaimPolicy() == PersistentVolumeReclaimPolicy.Delete) {
      // Provisioned for this claim, which got another volume: not needed.
      releaseAndReclaim(pv);
      return;
    }
    // Bound by the controller: give it back; pre-bound by the user: keep the reservation, drop the claim's uid.
    binder.unbindVolume(pv);
  }

  private void setPhase(PersistentVolume pv, PersistentVolumePhase phase) {
    if (pv.status().phase() != phase) {
      writes.setVolumePhase(pv, phase, "");
    }
  }

  /** Marks {@code pv} Released (a Failed phase is kept, so the user sees what went wrong) and reclaims it. */
  private void releaseAndReclaim(PersistentVolume pv) {
    PersistentVolume released = pv;
    if (pv.status().phase() != PersistentVolumePhase.Released
        && pv.status().phase() != PersistentVolumePhase.Failed) {
      released = writes.setVolumePhase(pv, PersistentVolumePhase.Released, "");
    }
    reclaim(released);
  }

  private void reclaim(PersistentVolume pv) {
    switch (pv.spec().persistentVolumeReclaimPolicy()) {
      case Retain -> LOG.debug("volume {} released; policy Retain keeps it", pv.metadata().name());
      case Delete -> delete(pv);
      case Recycle -> writes.setVolumePhase(pv, PersistentVolumePhase.Failed,
          "reclaim policy Recycle: " + PersistentVolume.RECYCLE_DEPRECATED);
    }
  }

  /**
   * Upstream's {@code deleteVolumeOperation} for a released volume of policy Delete: through the provisioner named by
   * {@value StorageAnnotations#PROVISIONED_BY} when it is registered here, then the object (after dropping the
   * {@value PersistentVolumeController#DELETION_PROTECTION_FINALIZER} finalizer). A volume provisioned by another
   * provisioner, or a CSI volume with no provisioner named, is left to its external deleter (the CSI driver's
   * provisioner), Released. Any other volume has nothing to delete its storage: Failed. A failed deletion is
   * Failed too, and retried by every later sync.
   */
  private void delete(PersistentVolume pv) {
    String by = pv.metadata().annotations().get(StorageAnnotations.PROVISIONED_BY);
    if (by == null && pv.spec().source() instanceof PersistentVolumeSource.Csi csi) {
      LOG.debug("volume {} released; waiting for CSI driver {} to delete it", pv.metadata().name(), csi.driver());
      return;
    }
    if (by == null) {
      // Not dynamically provisioned: nothing can delete its storage (upstream: no in-tree deleter plugin matched).
      writes.setVolumePhaseWithEvent(pv, PersistentVolumePhase.Failed, Event.WARNING,
          PersistentVolumeController.VOLUME_FAILED_DELETE, "error getting deleter volume plugin for volume \""
              + pv.metadata().name() + "\": no volume plugin matched");
      return;
    }
    VolumeProvisioner p = provisioners.get(by);
    if (p == null) {
      // Provisioned by an external provisioner: it deletes the volume (as upstream, the controller waits).
      LOG.debug("volume {} released; waiting for external provisioner {} to delete it", pv.metadata().name(), by);
      return;
    }
    Optional<String> failure = p.delete(pv);
    if (failure.isPresent()) {
      writes.setVolumePhaseWithEvent(pv, PersistentVolumePhase.Failed, Event.WARNING,
          PersistentVolumeController.VOLUME_FAILED_DELETE, failure.get());
      return;
    }
    PersistentVolume current = pv;
    if (pv.metadata().finalizers().contains(PersistentVolumeController.DELETION_PROTECTION_FINALIZER)) {
      List<String> rest = new ArrayList<>(pv.metadata().finalizers());
      rest.remove(PersistentVolumeController.DELETION_PROTECTION_FINALIZER);
      current = store.update(pv.withMetadata(pv.metadata().toBuilder().finalizers(rest).build()));
    }
    if (current.metadata().deletionTimestamp() == null) {
      store.delete(PersistentVolume.class, "", pv.metadata().name());
    }
  }
}
