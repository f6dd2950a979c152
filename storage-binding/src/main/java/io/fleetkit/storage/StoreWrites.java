package io.fleetkit.storage;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimPhase;
import io.fleetkit.api.core.PersistentVolumeClaimStatus;
import io.fleetkit.api.core.PersistentVolumePhase;
import io.fleetkit.api.core.PersistentVolumeStatus;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * The {@link PersistentVolumeController}'s small writes: volume phases (stamped with the controller's clock), claim
 * phases and statuses (re-read and retried on a conflict), annotations and events. Thread-safe.
 */
final class StoreWrites {
  /** The value of the controller's boolean annotations. */
  static final String YES = "yes";
  /** How often a write is re-read and tried again after a conflict. */
  static final int ATTEMPTS = 5;

  /** The action of each event reason (events.k8s.io/v1 requires one; core/v1 events, as upstream's, have none). */
  private static final Map<String, String> ACTIONS = Map.of(
      PersistentVolumeController.PROVISIONING_FAILED, "Provisioning",
      PersistentVolumeController.PROVISIONING_SUCCEEDED, "Provisioning",
      PersistentVolumeController.EXTERNAL_PROVISIONING, "Provisioning",
      PersistentVolumeController.PROVISIONING_CLEANUP_FAILED, "Provisioning",
      PersistentVolumeController.VOLUME_FAILED_DELETE, "Delete");

  private final ObjectStore store;
  private final Clock clock;
  private final EventRecorder events;

  StoreWrites(ObjectStore store, Clock clock, EventRecorder events) {
    this.store = store;
    this.clock = clock;
    this.events = EventRecorder.bestEffort(events);
  }

  /**
   * Upstream's {@code updateClaimStatus}: the claim's phase, with the access modes of {@code volume} (none without
   * one) and, when the phase changes, its capacity (none without one). Conditions are kept. Writes nothing when all
   * of that is already so.
   *
   * @return whether the status was written
   */
  boolean setClaimStatus(PersistentVolumeClaim c, PersistentVolumeClaimPhase phase, @Nullable PersistentVolume volume) {
    PersistentVolumeClaimStatus s = c.status();
    List<PersistentVolumeAccessMode> modes =
        volume == null ? List.of() : volume.spec().accessModes();
    ResourceList capacity = s.capacity();
    if (volume == null) {
      capacity = ResourceList.EMPTY;
    } else if (s.phase() != phase) {
      capacity = volume.spec().capacity();
    }
    if (s.phase() == phase && s.accessModes().equals(modes) && s.capacity().equals(capacity)) {
      return false;
    }
    ResourceList cap = capacity;
    updateClaimStatus(c, x -> x.withStatus(new PersistentVolumeClaimStatus(phase, modes, cap,
        x.status().conditions())));
    return true;
  }

  /**
   * Upstream's {@code updateClaimStatusWithEvent}: when the claim is not in {@code phase} yet, sets it as
   * {@link #setClaimStatus} does (no volume) and records the event; otherwise does nothing.
   */
  void setClaimPhaseWithEvent(PersistentVolumeClaim c, PersistentVolumeClaimPhase phase, String type, String reason,
      String note) {
    if (c.status().phase() == phase) {
      return;
    }
    setClaimStatus(c, phase, null);
    event(c, type, reason, note);
  }

  /** Records an event about {@code regarding} (best effort: the recorder never throws). */
  void event(ApiObject<?> regarding, String type, String reason, String note) {
    events.event(regarding, type, reason, ACTIONS.getOrDefault(reason, "Binding"), note);
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

  /**
   * Upstream's {@code updateVolumePhaseWithEvent}: when the volume is not in {@code phase} yet, sets it (with
   * {@code note} as the status message) and records the event; otherwise returns the volume as it is.
   */
  PersistentVolume setVolumePhaseWithEvent(PersistentVolume pv, PersistentVolumePhase phase, String type,
      String reason, String note) {
    if (pv.status().phase() == phase) {
      return pv;
    }
    PersistentVolume updated = setVolumePhase(pv, phase, note);
    event(updated, type, reason, note);
    return updated;
  }

  /** {@code m} with the annotation {@code key=value} (the same object if it has it already). */
  static ObjectMeta annotate(ObjectMeta m, String key, String value) {
    if (value.equals(m.annotations().get(key))) {
      return m;
    }
    return m.toBuilder().annotation(key, value).build();
  }
}
