package io.fleetkit.storage;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimPhase;
import io.fleetkit.api.core.PersistentVolumeClaimStatus;
import io.fleetkit.api.core.PersistentVolumePhase;
import io.fleetkit.api.core.PersistentVolumeStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The {@link PersistentVolumeController}'s small writes: volume phases (stamped with the controller's clock), claim
 * phases and statuses (re-read and retried on a conflict), and annotations. Thread-safe.
 */
final class StoreWrites {
  /** The value of the controller's boolean annotations. */
  static final String YES = "yes";
  /** How often a write is re-read and tried again after a conflict. */
  static final int ATTEMPTS = 5;

  private final ObjectStore store;
  private final Clock clock;

  StoreWrites(ObjectStore store, Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  void setClaimPhase(PersistentVolumeClaim c, PersistentVolumeClaimPhase phase) {
    PersistentVolumeClaimStatus s = c.status();
    updateClaimStatus(c, x -> x.withStatus(new PersistentVolumeClaimStatus(phase, s.accessModes(), s.capacity(),
        s.conditions())));
  }

  /** Writes {@code change} of the claim's status, re-reading the claim after a conflict; a deleted claim is left. */
  void updateClaimStatus(PersistentVolumeClaim c, UnaryOperator<PersistentVolumeClaim> change) {
    PersistentVolumeClaim cur = c;
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      try {
        store.updateStatus(change.apply(cur));
        return;
      } catch (ConflictException e) {
        Optional<PersistentVolumeClaim> latest =
            store.get(PersistentVolumeClaim.class, c.metadata().namespace(), c.metadata().name());
        if (latest.isEmpty()) {
          return;
        }
        cur = latest.get();
      } catch (NotFoundException e) {
        return;
      }
    }
  }

  PersistentVolume setVolumePhase(PersistentVolume pv, PersistentVolumePhase phase, String message) {
    return store.updateStatus(pv.withStatus(new PersistentVolumeStatus(phase, message,
        phase == PersistentVolumePhase.Failed ? "VolumeFailedReclaim" : "", clock.instant())));
  }

  /** {@code m} with the annotation {@code key=value} (the same object if it has it already). */
  static ObjectMeta annotate(ObjectMeta m, String key, String value) {
    if (value.equals(m.annotations().get(key))) {
      return m;
    }
    return m.toBuilder().annotation(key, value).build();
  }
}
