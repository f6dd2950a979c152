package io.fleetkit.api.store.spi;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimPhase;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.VolumeResourceRequirements;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;

/**
 * Kubernetes' {@code ValidatePersistentVolumeClaimUpdate} with the default feature gates of the version ported
 * (RecoverVolumeExpansionFailure on): a claim's spec is immutable except that the PV controller sets
 * {@code volumeName} once, a claim without a class may get one (the retroactive default class), and a bound claim's
 * storage request may change, never to {@code status.capacity} or below when it shrinks. "Bound" is the stored
 * claim's phase: an update keeps the stored status, as the API server's strategy copies it into the new object
 * before validating. Stateless.
 */
final class ClaimUpdateRule {
  private static final String STORAGE = "storage";

  private ClaimUpdateRule() {}

  static void check(PersistentVolumeClaim stored, PersistentVolumeClaim updated) {
    PersistentVolumeClaimSpec o = stored.spec();
    PersistentVolumeClaimSpec n = updated.spec();
    if (o == n || o.equals(n)) {
      return;
    }
    Violations v = UpdateChecks.violations(updated);
    // the new spec is compared with the allowed changes undone
    String volumeName = o.volumeName().isEmpty() ? o.volumeName() : n.volumeName();
    String className = o.storageClassName() == null && n.storageClassName() != null
        && !n.storageClassName().isEmpty() ? o.storageClassName() : n.storageClassName();
    VolumeResourceRequirements resources = n.resources();
    if (stored.status().phase() == PersistentVolumeClaimPhase.Bound && n.resources().requests().has(STORAGE)) {
      // a bound claim's storage request may change (growth; shrinking is checked below)
      ResourceList requests = withoutStorage(n.resources().requests());
      if (o.resources().requests().has(STORAGE)) {
        requests = requests.add(ResourceList.builder().put(STORAGE, o.resources().requests().get(STORAGE))
            .build());
      }
      resources = new VolumeResourceRequirements(requests, n.resources().limits());
    }
    PersistentVolumeClaimSpec munged = new PersistentVolumeClaimSpec(n.accessModes(), n.selector(), resources,
        className, n.volumeMode(), volumeName);
    if (!munged.equals(o)) {
      v.add("spec", "Forbidden: " + UpdateChecks.CLAIM_UPDATABLE + "; changed: "
          + UpdateChecks.changedComponents("spec", o, munged), null);
    }
    Quantity oldSize = o.resources().requests().get(STORAGE);
    Quantity newSize = n.resources().requests().get(STORAGE);
    if (newSize.compareTo(oldSize) < 0 && newSize.compareTo(stored.status().capacity().get(STORAGE)) <= 0) {
      v.add("spec.resources.requests.storage", "Forbidden: field can not be less than status.capacity", newSize);
    }
    if (n.volumeMode() != o.volumeMode()) {
      v.add("volumeMode", UpdateChecks.IMMUTABLE, n.volumeMode());
    }
    v.throwIfAny();
  }

  private static ResourceList withoutStorage(ResourceList requests) {
    ResourceList.Builder b = ResourceList.builder();
    requests.forEach((name, q) -> {
      if (!name.equals(STORAGE)) {
        b.put(name, q);
      }
    });
    return b.build();
  }
}
