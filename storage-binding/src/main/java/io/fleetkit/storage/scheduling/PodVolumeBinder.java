package io.fleetkit.storage.scheduling;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.storage.PersistentVolumeController;
import io.fleetkit.storage.scheduling.VolumeBindingState.ClaimToBind;
import io.fleetkit.storage.scheduling.VolumeBindingState.PodVolumes;
import io.fleetkit.storage.scheduling.VolumeBindingState.StaticBinding;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** PreBind's commit: binds all of a pod's claims, or rolls back those it bound and says why. */
final class PodVolumeBinder {
  private final PersistentVolumeController controller;
  private final ObjectStore store;

  /** A static volume reserved for a claim (its volume side written), the claim still to be bound. */
  private record Reserved(String volume, PersistentVolumeClaim claim) {}

  PodVolumeBinder(PersistentVolumeController controller) {
    this.controller = controller;
    this.store = controller.store();
  }

  /**
   * Reserves every static volume (the volume side), provisions the claims to provision, then binds the reserved
   * claims: a claim's {@code volumeName} is set only once (the store refuses changing it, as the API server does),
   * so it is written last, when nothing can fail any more but a write conflict. A failure releases the reservations
   * not yet bound; provisioned claims stay bound to their new volumes (as upstream, which never undoes an API write
   * of a binding), and a claim whose provisioning failed loses its selected node.
   */
  Optional<String> bindAll(PodVolumes volumes) {
    List<Reserved> reserved = new ArrayList<>();
    for (StaticBinding b : volumes.bindings()) {
      String pvName = b.pv().metadata().name();
      Optional<PersistentVolume> pv = store.get(PersistentVolume.class, "", pvName);
      Optional<PersistentVolumeClaim> claim = latest(b.claim());
      if (pv.isEmpty() || claim.isEmpty()) {
        return rollback(reserved, "volume " + pvName + " or claim " + b.claim().metadata().key() + " was deleted");
      }
      Optional<String> failure = controller.reserve(pv.get(), claim.get());
      if (failure.isPresent()) {
        return rollback(reserved, failure.get());
      }
      reserved.add(new Reserved(pvName, claim.get()));
    }
    for (ClaimToBind c : volumes.provisions()) {
      Optional<PersistentVolumeClaim> claim = latest(c.claim());
      if (claim.isEmpty()) {
        return rollback(reserved, "claim " + c.claim().metadata().key() + " was deleted");
      }
      PersistentVolumeClaim selected;
      try {
        selected = setSelectedNode(claim.get(), volumes.node().name());
      } catch (ConflictException | NotFoundException e) {
        return rollback(reserved, "claim " + c.claim().metadata().key() + " changed meanwhile: " + e.getMessage());
      }
      Optional<String> failure = controller.provision(selected, volumes.node());
      if (failure.isPresent()) {
        // As upstream, a claim whose provisioning failed loses its selected node so that the pod is rescheduled.
        latest(selected).ifPresent(this::clearSelectedNode);
        return rollback(reserved, failure.get());
      }
    }
    for (int i = 0; i < reserved.size(); i++) {
      Reserved r = reserved.get(i);
      Optional<PersistentVolume> pv = store.get(PersistentVolume.class, "", r.volume());
      Optional<PersistentVolumeClaim> claim = latest(r.claim());
      Optional<String> failure = pv.isEmpty() || claim.isEmpty()
          ? Optional.of("volume " + r.volume() + " or claim " + r.claim().metadata().key() + " was deleted")
          : controller.bind(pv.get(), claim.get());
      if (failure.isPresent()) {
        return rollback(reserved.subList(i, reserved.size()), failure.get());
      }
    }
    return Optional.empty();
  }

  private Optional<PersistentVolumeClaim> latest(PersistentVolumeClaim c) {
    return store.get(PersistentVolumeClaim.class, c.metadata().namespace(), c.metadata().name());
  }

  private PersistentVolumeClaim setSelectedNode(PersistentVolumeClaim c, String node) {
    if (node.equals(c.metadata().annotations().get(StorageAnnotations.SELECTED_NODE))) {
      return c;
    }
    return store.update(c.withMetadata(c.metadata().toBuilder().annotation(StorageAnnotations.SELECTED_NODE, node)
        .build()));
  }

  private void clearSelectedNode(PersistentVolumeClaim c) {
    Map<String, String> ann = new LinkedHashMap<>(c.metadata().annotations());
    if (ann.remove(StorageAnnotations.SELECTED_NODE) != null) {
      try {
        store.update(c.withMetadata(c.metadata().toBuilder().annotations(ann).build()));
      } catch (ConflictException | NotFoundException e) {
        // the next cycle sees the annotation and retries; nothing to undo
      }
    }
  }

  private Optional<String> rollback(List<Reserved> reserved, String failure) {
    for (int i = reserved.size() - 1; i >= 0; i--) {
      controller.unreserve(reserved.get(i).volume());
    }
    return Optional.of(failure + (reserved.isEmpty() ? ""
        : "; rolled back " + reserved.size() + " earlier binding(s)"));
  }
}
