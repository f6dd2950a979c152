package io.fleetkit.storage;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.ClaimReference;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumePhase;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.storage.provision.VolumeProvisioner;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The volume side of a {@link PersistentVolumeController} sync: a volume's phase from its claim reference
 * (Available, Bound, Released), giving back a volume whose claim went to another, and reclaiming released volumes
 * by their policy (Retain keeps, Delete deletes through the provisioner that made it, Recycle fails). A conflict or
 * a deleted object ends the sync; the next one retries. Thread-safe.
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

  void sync(PersistentVolume pv) {
    try {
      ClaimReference ref = pv.spec().claimRef();
      if (ref == null || ref.uid().isEmpty()) {
        if (pv.status().phase() != PersistentVolumePhase.Available
            && pv.status().phase() != PersistentVolumePhase.Failed) {
          writes.setVolumePhase(pv, PersistentVolumePhase.Available, "");
        }
        return;
      }
      Optional<PersistentVolumeClaim> claim = store.get(PersistentVolumeClaim.class, ref.namespace(), ref.name())
          .filter(c -> c.metadata().uid().equals(ref.uid()));
      if (claim.isEmpty()) {
        PersistentVolume released = pv;
        if (pv.status().phase() != PersistentVolumePhase.Released
            && pv.status().phase() != PersistentVolumePhase.Failed) {
          released = writes.setVolumePhase(pv, PersistentVolumePhase.Released, "");
        }
        if (released.status().phase() == PersistentVolumePhase.Released) {
          reclaim(released);
        }
        return;
      }
      PersistentVolumeClaim c = claim.get();
      String volumeName = c.spec().volumeName();
      if (volumeName.isEmpty() || volumeName.equals(pv.metadata().name())) {
        if (pv.status().phase() != PersistentVolumePhase.Bound) {
          writes.setVolumePhase(pv, PersistentVolumePhase.Bound, "");
        }
      } else if (StoreWrites.YES.equals(pv.metadata().annotations().get(StorageAnnotations.BOUND_BY_CONTROLLER))) {
        // The claim went to another volume: give this one back.
        binder.unbindVolume(pv);
      }
    } catch (ConflictException | NotFoundException e) {
      LOG.debug("sync of volume {}: {}; the next sync retries", pv.metadata().name(), e.getMessage());
    }
  }

  private void reclaim(PersistentVolume pv) {
    switch (pv.spec().persistentVolumeReclaimPolicy()) {
      case Retain -> LOG.debug("volume {} released; policy Retain keeps it", pv.metadata().name());
      case Delete -> {
        String by = pv.metadata().annotations().get(StorageAnnotations.PROVISIONED_BY);
        VolumeProvisioner p = by == null ? null : provisioners.get(by);
        if (p == null) {
          writes.setVolumePhase(pv, PersistentVolumePhase.Failed, "no deletable volume plugin for volume "
              + pv.metadata().name() + (by == null ? " (it was not dynamically provisioned)"
              : " (provisioner " + by + " is not registered)"));
          return;
        }
        Optional<String> failure = p.delete(pv);
        if (failure.isPresent()) {
          writes.setVolumePhase(pv, PersistentVolumePhase.Failed, failure.get());
        } else {
          store.delete(PersistentVolume.class, "", pv.metadata().name());
        }
      }
      case Recycle -> writes.setVolumePhase(pv, PersistentVolumePhase.Failed,
          "reclaim policy Recycle: " + PersistentVolume.RECYCLE_DEPRECATED);
    }
  }
}
