package io.fleetkit.storage;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.ClaimReference;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimPhase;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.storage.VolumeBindingMode;
import io.fleetkit.api.store.ObjectStore;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The claim side of a {@link PersistentVolumeController} sync: admits the default StorageClass, binds an unbound
 * claim to its best matching volume or provisions one (unless its class waits for the first consumer and no node is
 * selected yet), completes or repairs a bound claim's binding, and marks a claim Lost whose volume is gone or taken.
 * A write conflict re-reads the claim and tries again. Thread-safe.
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

  void sync(PersistentVolumeClaim claim) {
    if (claim.metadata().deletionTimestamp() != null) {
      return;
    }
    for (int attempt = 0; attempt < StoreWrites.ATTEMPTS; attempt++) {
      try {
        PersistentVolumeClaim c = admitDefaultClass(claim);
        if (c.spec().volumeName().isEmpty()) {
          syncUnbound(c);
        } else {
          syncBound(c);
        }
        return;
      } catch (ConflictException e) {
        LOG.debug("sync of claim {}: conflict, retrying", claim.metadata().key());
        Optional<PersistentVolumeClaim> latest =
            store.get(PersistentVolumeClaim.class, claim.metadata().namespace(), claim.metadata().name());
        if (latest.isEmpty()) {
          return;
        }
        claim = latest.get();
      } catch (NotFoundException e) {
        return;
      }
    }
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

  private void syncUnbound(PersistentVolumeClaim c) {
    String className = VolumeMatching.claimClass(c);
    StorageClass sc = className.isEmpty() ? null : store.get(StorageClass.class, "", className).orElse(null);
    boolean delay = sc != null && sc.volumeBindingMode() == VolumeBindingMode.WaitForFirstConsumer;
    List<PersistentVolume> volumes = store.list(PersistentVolume.class).items();
    Optional<PersistentVolume> match = VolumeMatching.findBestMatchForClaim(c, volumes, delay);
    if (match.isPresent()) {
      Optional<String> failure = binder.bind(match.get(), c);
      if (failure.isPresent()) {
        // Lost a race for the volume: look again with fresh objects.
        throw new ConflictException(failure.get());
      }
      return;
    }
    String selectedNode = c.metadata().annotations().get(StorageAnnotations.SELECTED_NODE);
    if (sc == null || c.spec().selector() != null || StorageAnnotations.NO_PROVISIONER.equals(sc.provisioner())
        || (delay && selectedNode == null)) {
      return;
    }
    Node node = selectedNode == null ? null : store.get(Node.class, "", selectedNode).orElse(null);
    provisioner.provision(c, node);
  }

  private void syncBound(PersistentVolumeClaim c) {
    Optional<PersistentVolume> found = store.get(PersistentVolume.class, "", c.spec().volumeName());
    if (found.isEmpty()) {
      if (c.status().phase() == PersistentVolumeClaimPhase.Bound) {
        LOG.debug("claim {} lost its volume {}", c.metadata().key(), c.spec().volumeName());
        writes.setClaimPhase(c, PersistentVolumeClaimPhase.Lost);
      }
      return;
    }
    PersistentVolume pv = found.get();
    ClaimReference ref = pv.spec().claimRef();
    if (ref == null) {
      if (satisfies(pv, c)) {
        binder.bind(pv, c).ifPresent(f -> {
          throw new ConflictException(f);
        });
      }
    } else if (VolumeMatching.isBoundToClaim(pv, c)) {
      binder.bind(pv, c).ifPresent(f -> {
        throw new ConflictException(f);
      });
    } else if (c.status().phase() == PersistentVolumeClaimPhase.Bound) {
      writes.setClaimPhase(c, PersistentVolumeClaimPhase.Lost);
    }
  }

  /** Whether a volume the claim names by {@code volumeName} can serve it (size, mode, class, access modes). */
  private static boolean satisfies(PersistentVolume pv, PersistentVolumeClaim c) {
    return pv.storage().compareTo(c.requestedStorage()) >= 0 && !VolumeMatching.volumeModeMismatch(c, pv)
        && VolumeMatching.volumeClass(pv).equals(VolumeMatching.claimClass(c))
        && VolumeMatching.checkAccessModes(c, pv) && pv.metadata().deletionTimestamp() == null;
  }
}
