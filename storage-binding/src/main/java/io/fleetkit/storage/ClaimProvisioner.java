package io.fleetkit.storage;

import static io.fleetkit.storage.PersistentVolumeController.PROVISIONING_FAILED;
import static io.fleetkit.storage.StoreWrites.YES;
import static io.fleetkit.storage.StoreWrites.annotate;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.StoreUnavailableException;
import io.fleetkit.api.core.ClaimReference;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimCondition;
import io.fleetkit.api.core.PersistentVolumeClaimStatus;
import io.fleetkit.api.core.PersistentVolumePhase;
import io.fleetkit.api.core.PersistentVolumeReclaimPolicy;
import io.fleetkit.api.core.PersistentVolumeSpec;
import io.fleetkit.api.core.PersistentVolumeStatus;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.storage.ProvisioningBackoff.Attempt;
import io.fleetkit.storage.provision.ProvisionRequest;
import io.fleetkit.storage.provision.ProvisionResult;
import io.fleetkit.storage.provision.VolumeProvisioner;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dynamic provisioning for {@link PersistentVolumeController#provision} and its undo
 * ({@link PersistentVolumeController#deleteVolume}): a volume from the claim's class's provisioner, created bound to
 * the claim and then bound through the {@link ClaimBinder}; failures back off ({@link ProvisioningBackoff}) and are
 * shown in the claim's {@value PersistentVolumeController#PROVISIONING_FAILED} condition and a Warning event of that
 * reason. Thread-safe.
 */
final class ClaimProvisioner {
  // Logs under the controller's name, as before this class was split out of it.
  private static final Logger LOG = LoggerFactory.getLogger(PersistentVolumeController.class);
  /** The prefix of provisioners only the controller itself runs (upstream's in-tree plugins), never external. */
  private static final String IN_TREE_PREFIX = "kubernetes.io/";

  private final ObjectStore store;
  private final Clock clock;
  private final Map<String, VolumeProvisioner> provisioners;
  private final ClaimBinder binder;
  private final StoreWrites writes;
  private final ProvisioningBackoff backoff;

  ClaimProvisioner(ObjectStore store, Clock clock, Map<String, VolumeProvisioner> provisioners, ClaimBinder binder,
      StoreWrites writes, ProvisioningBackoff backoff) {
    this.store = store;
    this.clock = clock;
    this.provisioners = provisioners;
    this.binder = binder;
    this.writes = writes;
    this.backoff = backoff;
  }

  /** See {@link PersistentVolumeController#provision}: provisions and binds. */
  Optional<String> provision(PersistentVolumeClaim claim, @Nullable Node node) {
    return provision(claim, node, true);
  }

  /**
   * Upstream's {@code provisionClaim} and {@code provisionClaimOperation}: the claim's class's provisioner creates
   * a volume named {@code pvc-<claim uid>}, which is saved bound to the claim (claim reference, phase Bound,
   * {@code bound-by-controller}, {@value StorageAnnotations#PROVISIONED_BY}, and for policy Delete the
   * {@value PersistentVolumeController#DELETION_PROTECTION_FINALIZER} finalizer). The claim is annotated with its
   * provisioner first. With {@code bind} the claim is bound at once (the scheduler's path); without, as upstream,
   * the claim's next sync binds it.
   *
   * <p>A class whose provisioner is not registered here is external: the claim is annotated and a Normal
   * {@code ExternalProvisioning} event says it waits, except for a {@code kubernetes.io/} provisioner, which only
   * this controller could run (a Warning {@value PersistentVolumeController#PROVISIONING_FAILED}). Saving the new
   * volume is tried {@value StoreWrites#ATTEMPTS} times (one that already exists counts as saved); if it cannot be
   * saved, its storage is deleted (also tried that often).
   *
   * @return empty when the volume exists (and, with {@code bind}, the claim is bound to it), else why not
   */
  Optional<String> provision(PersistentVolumeClaim claim, @Nullable Node node, boolean bind) {
    String key = claim.metadata().key();
    Instant now = clock.instant();
    Attempt b = backoff.get(key);
    if (b != null && now.isBefore(b.next())) {
      return Optional.of("provisioning for claim " + key + " failed " + b.failures() + " time(s); next attempt at "
          + b.next());
    }
    String className = VolumeMatching.claimClass(claim);
    Optional<StorageClass> found = className.isEmpty() ? Optional.empty()
        : store.get(StorageClass.class, "", className);
    if (found.isEmpty()) {
      return Optional.of("claim " + key + ": storage class \"" + className + "\" not found");
    }
    StorageClass sc = found.get();
    VolumeProvisioner p = provisioners.get(sc.provisioner());
    if (p == null && sc.provisioner().startsWith(IN_TREE_PREFIX)) {
      String text = "no volume plugin matched name: " + sc.provisioner();
      writes.event(claim, Event.WARNING, PROVISIONING_FAILED, text);
      return Optional.of("claim " + key + ": " + text);
    }
    PersistentVolumeClaim c = annotateProvisioner(claim, sc.provisioner());
    if (p == null) {
      writes.event(c, Event.NORMAL, PersistentVolumeController.EXTERNAL_PROVISIONING,
          "Waiting for a volume to be created either by the external provisioner '" + sc.provisioner()
              + "' or manually by the system administrator. If volume creation is delayed, please verify that the"
              + " provisioner is running and correctly registered.");
      return Optional.of("claim " + key + ": waiting for external provisioner " + sc.provisioner()
          + " (not registered with this controller)");
    }
    String volumeName = PersistentVolumeController.VOLUME_NAME_PREFIX
        + (c.metadata().uid().isEmpty() ? c.metadata().name() : c.metadata().uid());
    Optional<PersistentVolume> existing = store.get(PersistentVolume.class, "", volumeName);
    if (existing.isPresent()) {
      // Provisioned before (e.g. by a sync whose claim update was lost): nothing to provision.
      return bind ? binder.bind(existing.get(), c) : Optional.empty();
    }
    ProvisionResult result;
    try {
      result = p.provision(new ProvisionRequest(c, sc, volumeName, node));
    } catch (RuntimeException e) {
      // a provisioner that throws fails the attempt like one that reports a failure: backed off and retried
      LOG.warn("provisioner {} threw for claim {}", p.name(), key, e);
      result = ProvisionResult.failed(p.name() + " threw " + e);
    }
    if (result instanceof ProvisionResult.Failed f) {
      String text = "failed to provision volume with StorageClass \"" + sc.metadata().name() + "\": "
          + f.message();
      return Optional.of(recordFailure(c, text, now, b, true));
    }
    PersistentVolume pv = boundToClaim(((ProvisionResult.Provisioned) result).volume(), c, p, className, now);
    Optional<String> saveFailure = save(pv);
    if (saveFailure.isPresent()) {
      String text = "Error creating provisioned PV object for claim " + key + ": " + saveFailure.get()
          + ". Deleting the volume.";
      writes.event(c, Event.WARNING, PROVISIONING_FAILED, text);
      Optional<String> cleanup = deleteStorage(p, pv);
      if (cleanup.isPresent()) {
        writes.event(c, Event.WARNING, PersistentVolumeController.PROVISIONING_CLEANUP_FAILED,
            "Error cleaning provisioned volume for claim " + key + ": " + cleanup.get() + ". Please delete manually.");
      }
      return Optional.of(recordFailure(c, text, now, b, false));
    }
    LOG.debug("provisioned volume {} for claim {}", volumeName, key);
    writes.event(c, Event.NORMAL, PersistentVolumeController.PROVISIONING_SUCCEEDED,
        "Successfully provisioned volume " + volumeName + " using " + p.name());
    if (!bind) {
      return Optional.empty();
    }
    return binder.bind(store.get(PersistentVolume.class, "", volumeName).orElse(pv), c);
  }

  /** Upstream's {@code setClaimProvisioner}: both spellings of the storage-provisioner annotation. */
  private PersistentVolumeClaim annotateProvisioner(PersistentVolumeClaim claim, String provisioner) {
    PersistentVolumeClaim c = claim;
    for (int attempt = 0; attempt < StoreWrites.ATTEMPTS; attempt++) {
      ObjectMeta meta = annotate(annotate(c.metadata(), StorageAnnotations.STORAGE_PROVISIONER, provisioner),
          StorageAnnotations.BETA_STORAGE_PROVISIONER, provisioner);
      if (meta == c.metadata()) {
        return c;
      }
      try {
        return store.update(c.withMetadata(meta));
      } catch (ConflictException e) {
        c = store.get(PersistentVolumeClaim.class, c.metadata().namespace(), c.metadata().name()).orElseThrow(
            () -> new NotFoundException("claim " + claim.metadata().key() + " was deleted"));
      }
    }
    throw new ConflictException("claim " + claim.metadata().key() + ": gave up annotating it after "
        + StoreWrites.ATTEMPTS + " write conflicts");
  }

  /** The provisioner's volume as the controller saves it: bound to the claim, annotated, protected when Delete. */
  private static PersistentVolume boundToClaim(PersistentVolume pv, PersistentVolumeClaim claim, VolumeProvisioner p,
      String className, Instant now) {
    ObjectMeta meta = annotate(annotate(pv.metadata(), StorageAnnotations.BOUND_BY_CONTROLLER, YES),
        StorageAnnotations.PROVISIONED_BY, p.name());
    if (pv.spec().persistentVolumeReclaimPolicy() == PersistentVolumeReclaimPolicy.Delete
        && !meta.finalizers().contains(PersistentVolumeController.DELETION_PROTECTION_FINALIZER)) {
      meta = meta.toBuilder().finalizer(PersistentVolumeController.DELETION_PROTECTION_FINALIZER).build();
    }
    PersistentVolumeSpec spec = pv.spec().toBuilder().claimRef(ClaimReference.to(claim)).storageClassName(className)
        .build();
    return pv.withMetadata(meta).withSpec(spec)
        .withStatus(new PersistentVolumeStatus(PersistentVolumePhase.Bound, "", "", now));
  }

  /** Creates the volume, up to {@link StoreWrites#ATTEMPTS} times; one already there counts as saved. */
  private Optional<String> save(PersistentVolume pv) {
    String last = "";
    for (int attempt = 0; attempt < StoreWrites.ATTEMPTS; attempt++) {
      try {
        store.create(pv);
        return Optional.empty();
      } catch (ConflictException e) {
        // Already exists: an earlier attempt was saved though its answer was lost.
        return Optional.empty();
      } catch (StoreUnavailableException e) {
        last = e.getMessage();
        LOG.debug("saving provisioned volume {}: {}; retrying", pv.metadata().name(), last);
      }
    }
    return Optional.of(last);
  }

  /** Deletes the storage of a volume that could not be saved, up to {@link StoreWrites#ATTEMPTS} times. */
  private static Optional<String> deleteStorage(VolumeProvisioner p, PersistentVolume pv) {
    Optional<String> failure = Optional.empty();
    for (int attempt = 0; attempt < StoreWrites.ATTEMPTS; attempt++) {
      failure = p.delete(pv);
      if (failure.isEmpty()) {
        return failure;
      }
    }
    return failure;
  }

  /**
   * Records a failed provisioning: the backoff, the claim's {@value PersistentVolumeController#PROVISIONING_FAILED}
   * condition and, with {@code event}, a Warning event of that reason ({@code text} as its note).
   */
  private String recordFailure(PersistentVolumeClaim claim, String text, Instant now, @Nullable Attempt previous,
      boolean event) {
    Attempt attempt = backoff.failed(claim.metadata().key(), previous, now);
    int failures = attempt.failures();
    Instant next = attempt.next();
    PersistentVolumeClaimCondition cond = new PersistentVolumeClaimCondition(PROVISIONING_FAILED,
        ConditionStatus.True, now, now, PROVISIONING_FAILED, text + " (attempt " + failures + ", next at " + next
        + ")");
    writes.updateClaimStatus(claim, x -> {
      List<PersistentVolumeClaimCondition> conds = new ArrayList<>();
      for (PersistentVolumeClaimCondition c : x.status().conditions()) {
        if (!c.type().equals(PROVISIONING_FAILED)) {
          conds.add(c);
        }
      }
      conds.add(cond);
      PersistentVolumeClaimStatus s = x.status();
      return x.withStatus(new PersistentVolumeClaimStatus(s.phase(), s.accessModes(), s.capacity(), conds));
    });
    if (event) {
      writes.event(claim, Event.WARNING, PROVISIONING_FAILED, text);
    }
    LOG.debug("claim {}: {}", claim.metadata().key(), text);
    return text;
  }

  /** See {@link PersistentVolumeController#deleteVolume}. */
  Optional<String> deleteVolume(String name) {
    Optional<PersistentVolume> pv = store.get(PersistentVolume.class, "", name);
    if (pv.isEmpty()) {
      return Optional.empty();
    }
    String by = pv.get().metadata().annotations().get(StorageAnnotations.PROVISIONED_BY);
    VolumeProvisioner p = by == null ? null : provisioners.get(by);
    if (p != null) {
      Optional<String> failure = p.delete(pv.get());
      if (failure.isPresent()) {
        return failure;
      }
    }
    try {
      PersistentVolume current = pv.get();
      if (current.metadata().finalizers().contains(PersistentVolumeController.DELETION_PROTECTION_FINALIZER)) {
        List<String> rest = new ArrayList<>(current.metadata().finalizers());
        rest.remove(PersistentVolumeController.DELETION_PROTECTION_FINALIZER);
        current = store.update(current.withMetadata(current.metadata().toBuilder().finalizers(rest).build()));
      }
      if (current.metadata().deletionTimestamp() == null) {
        store.delete(PersistentVolume.class, "", name);
      }
    } catch (NotFoundException e) {
      // already gone
    } catch (ConflictException e) {
      return Optional.of("deleting volume " + name + ": it changed meanwhile (conflict)");
    }
    return Optional.empty();
  }
}
