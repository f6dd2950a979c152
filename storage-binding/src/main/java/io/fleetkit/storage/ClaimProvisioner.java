package io.fleetkit.storage;

import static io.fleetkit.storage.PersistentVolumeController.PROVISIONING_FAILED;
import static io.fleetkit.storage.StoreWrites.YES;
import static io.fleetkit.storage.StoreWrites.annotate;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.ClaimReference;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimCondition;
import io.fleetkit.api.core.PersistentVolumeClaimStatus;
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

  /** See {@link PersistentVolumeController#provision}. */
  Optional<String> provision(PersistentVolumeClaim claim, @Nullable Node node) {
    String key = claim.metadata().key();
    Instant now = clock.instant();
    Attempt b = backoff.get(key);
    if (b != null && now.isBefore(b.next())) {
      return Optional.of("provisioning for claim " + key + " failed " + b.failures() + " time(s); next attempt at "
          + b.next());
    }
    String className = VolumeMatching.claimClass(claim);
    Optional<StorageClass> sc = className.isEmpty() ? Optional.empty()
        : store.get(StorageClass.class, "", className);
    if (sc.isEmpty()) {
      return Optional.of("claim " + key + ": storage class \"" + className + "\" not found");
    }
    VolumeProvisioner p = provisioners.get(sc.get().provisioner());
    if (p == null) {
      return Optional.of("claim " + key + ": waiting for external provisioner " + sc.get().provisioner()
          + " (not registered with this controller)");
    }
    String volumeName = PersistentVolumeController.VOLUME_NAME_PREFIX
        + (claim.metadata().uid().isEmpty() ? claim.metadata().name() : claim.metadata().uid());
    Optional<PersistentVolume> existing = store.get(PersistentVolume.class, "", volumeName);
    if (existing.isPresent()) {
      return binder.bind(existing.get(), claim);
    }
    ProvisionResult result = p.provision(new ProvisionRequest(claim, sc.get(), volumeName, node));
    if (result instanceof ProvisionResult.Failed f) {
      return Optional.of(recordFailure(claim, sc.get(), f.message(), now, b));
    }
    PersistentVolume pv = ((ProvisionResult.Provisioned) result).volume();
    ObjectMeta meta = annotate(annotate(pv.metadata(), StorageAnnotations.PROVISIONED_BY, p.name()),
        StorageAnnotations.BOUND_BY_CONTROLLER, YES);
    PersistentVolume created;
    try {
      created = store.create(pv.withMetadata(meta).withSpec(pv.spec().withClaimRef(ClaimReference.to(claim))));
    } catch (ConflictException e) {
      p.delete(pv);
      return Optional.of("claim " + key + ": volume " + volumeName + " was created meanwhile");
    }
    LOG.debug("provisioned volume {} for claim {}", volumeName, key);
    return binder.bind(created, claim);
  }

  private String recordFailure(PersistentVolumeClaim claim, StorageClass sc, String message, Instant now,
      @Nullable Attempt previous) {
    Attempt attempt = backoff.failed(claim.metadata().key(), previous, now);
    int failures = attempt.failures();
    Instant next = attempt.next();
    String text = "failed to provision volume with StorageClass \"" + sc.metadata().name() + "\": " + message;
    PersistentVolumeClaimCondition cond = new PersistentVolumeClaimCondition(PROVISIONING_FAILED,
        ConditionStatus.True, now, now, PROVISIONING_FAILED, text + " (attempt " + failures + ", next at " + next
        + ")");
    List<PersistentVolumeClaimCondition> conds = new ArrayList<>();
    for (PersistentVolumeClaimCondition c : claim.status().conditions()) {
      if (!c.type().equals(PROVISIONING_FAILED)) {
        conds.add(c);
      }
    }
    conds.add(cond);
    PersistentVolumeClaimStatus s = claim.status();
    writes.updateClaimStatus(claim, x -> x.withStatus(new PersistentVolumeClaimStatus(s.phase(), s.accessModes(),
        s.capacity(), conds)));
    writes.event(claim, Event.WARNING, PROVISIONING_FAILED, text);
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
      store.delete(PersistentVolume.class, "", name);
    } catch (NotFoundException e) {
      // already gone
    }
    return Optional.empty();
  }
}
