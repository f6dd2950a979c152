package io.fleetkit.storage;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.ClaimReference;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimPhase;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.storage.VolumeBindingMode;
import io.fleetkit.api.store.ObjectStore;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The claim side of a {@link PersistentVolumeController} sync, as upstream's {@code syncClaim}: a claim without
 * {@value StorageAnnotations#BIND_COMPLETED} is unbound ({@link #syncUnbound}: bind it to its best matching volume,
 * or the volume it names if that satisfies it, else provision one or wait), a claim with it was bound
 * ({@link #syncBound}: repair the binding, or mark it Lost when its volume is gone or taken). Admits the default
 * StorageClass first, as FleetKit has no admission plugin for it. A write conflict re-reads the claim and tries
 * again. Thread-safe.
 */
final class ClaimSync {
  // Logs under the controller's name, as before this class was split out of it.
  private static final Logger LOG = LoggerFactory.getLogger(PersistentVolumeController.class);

  private final ObjectStore store;
  private final StoreWrites writes;
  private final ClaimBinder binder;
  private final ClaimProvisioner provisioner;

  ClaimSync(ObjectStore store, StoreWrites writes, ClaimBinder binder, ClaimProvisioner provisioner) {
    this.store = store;
    this.writes = writes;
    this.binder = binder;
    this.provisioner = provisioner;
  }

  /** Syncs the claim once; returns why the sync failed (upstream's error), empty when it did not. */
  Optional<String> sync(PersistentVolumeClaim claim) {
    if (claim.metadata().deletionTimestamp() != null) {
      return Optional.empty();
    }
    for (int attempt = 0; attempt < StoreWrites.ATTEMPTS; attempt++) {
      try {
        PersistentVolumeClaim c = admitDefaultClass(claim);
        if (!c.metadata().annotations().containsKey(StorageAnnotations.BIND_COMPLETED)) {
          return syncUnbound(c);
        }
        syncBound(c);
        return Optional.empty();
      } catch (ConflictException e) {
        LOG.debug("sync of claim {}: conflict, retrying", claim.metadata().key());
        Optional<PersistentVolumeClaim> latest =
            store.get(PersistentVolumeClaim.class, claim.metadata().namespace(), claim.metadata().name());
        if (latest.isEmpty()) {
          return Optional.empty();
        }
        claim = latest.get();
      } catch (NotFoundException e) {
        return Optional.empty();
      }
    }
    return Optional.of("sync of claim " + claim.metadata().key() + ": gave up after " + StoreWrites.ATTEMPTS
        + " write conflicts");
  }

  /** Fills in the default StorageClass as admission does, for a claim that names none. */
  private PersistentVolumeClaim admitDefaultClass(PersistentVolumeClaim c) {
    if (c.spec().storageClassName() != null
        || c.metadata().annotations().containsKey(StorageAnnotations.BETA_STORAGE_CLASS)) {
      return c;
    }
    Optional<StorageClass> def = store.list(StorageClass.class).items().stream().filter(StorageClass::isDefault)
        .max(Comparator.comparing((StorageClass s) -> s.metadata().creationTimestamp(),
                Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(s -> s.metadata().name(), Comparator.reverseOrder()));
    if (def.isEmpty()) {
      return c;
    }
    return store.update(c.withSpec(c.spec().withStorageClassName(def.get().metadata().name())));
  }

  /** Upstream's {@code syncUnboundClaim}: a claim whose binding has not completed. */
  private Optional<String> syncUnbound(PersistentVolumeClaim c) {
    if (c.spec().volumeName().isEmpty()) {
      return syncUnboundAnyVolume(c);
    }
    // The user asked for a specific volume.
    Optional<PersistentVolume> found = store.get(PersistentVolume.class, "", c.spec().volumeName());
    if (found.isEmpty()) {
      // Not there (yet): wait for it.
      writes.setClaimStatus(c, PersistentVolumeClaimPhase.Pending, null);
      return Optional.empty();
    }
    PersistentVolume pv = found.get();
    ClaimReference ref = pv.spec().claimRef();
    if (ref == null) {
      Optional<String> mismatch = mismatch(pv, c);
      if (mismatch.isPresent()) {
        writes.event(c, Event.WARNING, PersistentVolumeController.VOLUME_MISMATCH,
            "Cannot bind to requested volume \"" + pv.metadata().name() + "\": " + mismatch.get());
        writes.setClaimStatus(c, PersistentVolumeClaimPhase.Pending, null);
        return Optional.empty();
      }
      bindOrRetry(pv, c);
      return Optional.empty();
    }
    if (VolumeMatching.isBoundToClaim(pv, c)) {
      bindOrRetry(pv, c);
      return Optional.empty();
    }
    writes.event(c, Event.WARNING, PersistentVolumeController.FAILED_BINDING,
        "volume \"" + pv.metadata().name() + "\" already bound to a different claim.");
    if (!c.metadata().annotations().containsKey(StorageAnnotations.BOUND_BY_CONTROLLER)) {
      // Pre-bound by the user to a volume someone else has: wait for it.
      writes.setClaimStatus(c, PersistentVolumeClaimPhase.Pending, null);
      return Optional.empty();
    }
    // The controller bound it, yet the binding never completed and the volume went to another claim: upstream's
    // "THIS SHOULD NEVER HAPPEN" (someone removed bind-completed).
    return Optional.of("invalid binding of claim " + c.metadata().key() + " to volume " + c.spec().volumeName()
        + ": volume already claimed by " + ref.namespace() + "/" + ref.name());
  }

  /** An unbound claim that names no volume: the best match, else provisioning, else wait. */
  private Optional<String> syncUnboundAnyVolume(PersistentVolumeClaim c) {
    String className = VolumeMatching.claimClass(c);
    StorageClass sc = className.isEmpty() ? null : store.get(StorageClass.class, "", className).orElse(null);
    boolean delay = sc != null && sc.volumeBindingMode() == VolumeBindingMode.WaitForFirstConsumer;
    List<PersistentVolume> volumes = store.list(PersistentVolume.class).items();
    Optional<PersistentVolume> match = VolumeMatching.findBestMatchForClaim(c, volumes, delay);
    if (match.isPresent()) {
      bindOrRetry(match.get(), c);
      return Optional.empty();
    }
    String selectedNode = c.metadata().annotations().get(StorageAnnotations.SELECTED_NODE);
    if (delay && selectedNode == null) {
      // No pod using the claim has been scheduled: the scheduler binds or provisions it then.
      writes.event(c, Event.NORMAL, PersistentVolumeController.WAIT_FOR_FIRST_CONSUMER,
          "waiting for first consumer to be created before binding");
    } else if (!className.isEmpty()) {
      provision(c, sc, className, selectedNode);
      return Optional.empty();
    } else {
      writes.event(c, Event.NORMAL, PersistentVolumeController.FAILED_BINDING,
          "no persistent volumes available for this claim and no storage class is set");
    }
    writes.setClaimStatus(c, PersistentVolumeClaimPhase.Pending, null);
    return Optional.empty();
  }

  /** Upstream's {@code provisionClaim}: a missing class is reported here, the rest by {@link ClaimProvisioner}. */
  private void provision(PersistentVolumeClaim c, @Nullable StorageClass sc, String className,
      @Nullable String selectedNode) {
    if (sc == null) {
      writes.event(c, Event.WARNING, PersistentVolumeController.PROVISIONING_FAILED,
          "storageclass.storage.k8s.io \"" + className + "\" not found");
      return;
    }
    if (c.spec().selector() != null) {
      // FleetKit's provisioners do not provision for a selector (as external provisioners refuse it).
      return;
    }
    Node node = selectedNode == null ? null : store.get(Node.class, "", selectedNode).orElse(null);
    // As upstream, the new volume is saved bound to the claim; the claim's next sync binds it.
    provisioner.provision(c, node, false);
  }

  /** Upstream's {@code syncBoundClaim}: a claim whose binding completed once. */
  private void syncBound(PersistentVolumeClaim c) {
    if (c.spec().volumeName().isEmpty()) {
      LOG.debug("claim {} lost its volumeName", c.metadata().key());
      writes.setClaimPhaseWithEvent(c, PersistentVolumeClaimPhase.Lost, Event.WARNING,
          PersistentVolumeController.CLAIM_LOST,
          "Bound claim has lost reference to PersistentVolume. Data on the volume is lost!");
      return;
    }
    Optional<PersistentVolume> found = store.get(PersistentVolume.class, "", c.spec().volumeName());
    if (found.isEmpty()) {
      LOG.debug("claim {} lost its volume {}", c.metadata().key(), c.spec().volumeName());
      writes.setClaimPhaseWithEvent(c, PersistentVolumeClaimPhase.Lost, Event.WARNING,
          PersistentVolumeController.CLAIM_LOST,
          "Bound claim has lost its PersistentVolume. Data on the volume is lost!");
      return;
    }
    PersistentVolume pv = found.get();
    ClaimReference ref = pv.spec().claimRef();
    if (ref == null || ref.uid().equals(c.metadata().uid())) {
      // The volume came unbound (or its update is not seen yet), or all is well: (re)bind, a no-op when bound.
      bindOrRetry(pv, c);
    } else {
      writes.setClaimPhaseWithEvent(c, PersistentVolumeClaimPhase.Lost, Event.WARNING,
          PersistentVolumeController.CLAIM_MISBOUND,
          "Two claims are bound to the same volume, this one is bound incorrectly");
    }
  }

  private void bindOrRetry(PersistentVolume pv, PersistentVolumeClaim c) {
    Optional<String> failure = binder.bind(pv, c);
    if (failure.isPresent()) {
      // Lost a race for the volume (or the claim changed): look again with fresh objects.
      throw new ConflictException(failure.get());
    }
  }

  /**
   * Upstream's {@code checkVolumeSatisfyClaim}: why the volume a claim names cannot serve it (being deleted, too
   * small, another class, volume mode or access modes), empty when it can. The claim's selector is not checked: a
   * volume named by the user is taken as chosen.
   */
  private static Optional<String> mismatch(PersistentVolume pv, PersistentVolumeClaim c) {
    if (pv.metadata().deletionTimestamp() != null) {
      return Optional.of("the volume is marked for deletion \"" + pv.metadata().name() + "\"");
    }
    if (pv.storage().compareTo(c.requestedStorage()) < 0) {
      return Optional.of("requested PV is too small");
    }
    if (!VolumeMatching.volumeClass(pv).equals(VolumeMatching.claimClass(c))) {
      return Optional.of("storageClassName does not match");
    }
    if (VolumeMatching.volumeModeMismatch(c, pv)) {
      return Optional.of("incompatible volumeMode");
    }
    if (!VolumeMatching.checkAccessModes(c, pv)) {
      return Optional.of("incompatible accessMode");
    }
    return Optional.empty();
  }
}
