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

  private record Done(PersistentVolumeClaim claim, String volume, boolean provisioned) {}

  PodVolumeBinder(PersistentVolumeController controller) {
    this.controller = controller;
    this.store = controller.store();
  }

  Optional<String> bindAll(PodVolumes volumes) {
    List<Done> done = new ArrayList<>();
    for (StaticBinding b : volumes.bindings()) {
      String pvName = b.pv().metadata().name();
      Optional<PersistentVolume> pv = store.get(PersistentVolume.class, "", pvName);
      Optional<PersistentVolumeClaim> claim = latest(b.claim());
      if (pv.isEmpty() || claim.isEmpty()) {
        return rollback(done, "volume " + pvName + " or claim " + b.claim().metadata().key() + " was deleted");
      }
      Optional<String> failure = controller.bind(pv.get(), claim.get());
      if (failure.isPresent()) {
        return rollback(done, failure.get());
      }
      done.add(new Done(claim.get(), pvName, false));
    }
    for (ClaimToBind c : volumes.provisions()) {
      Optional<PersistentVolumeClaim> claim = latest(c.claim());
      if (claim.isEmpty()) {
        return rollback(done, "claim " + c.claim().metadata().key() + " was deleted");
      }
      PersistentVolumeClaim selected;
      try {
        selected = setSelectedNode(claim.get(), volumes.node().name());
      } catch (ConflictException | NotFoundException e) {
        return rollback(done, "claim " + c.claim().metadata().key() + " changed meanwhile: " + e.getMessage());
      }
      Optional<String> failure = controller.provision(selected, volumes.node());
      if (failure.isPresent()) {
        // As upstream, a claim whose provisioning failed loses its selected node so that the pod is rescheduled.
        latest(selected).ifPresent(this::clearSelectedNode);
        return rollback(done, failure.get());
      }
      PersistentVolumeClaim bound = latest(selected).orElse(selected);
      done.add(new Done(bound, bound.spec().volumeName(), true));
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

  private Optional<String> rollback(List<Done> done, String failure) {
    for (int i = done.size() - 1; i >= 0; i--) {
      Done d = done.get(i);
      controller.unbind(d.volume(), d.claim().metadata().namespace(), d.claim().metadata().name());
      if (d.provisioned()) {
        controller.deleteVolume(d.volume());
        latest(d.claim()).ifPresent(this::clearSelectedNode);
      }
    }
    return Optional.of(failure + (done.isEmpty() ? "" : "; rolled back " + done.size() + " earlier binding(s)"));
  }
}
