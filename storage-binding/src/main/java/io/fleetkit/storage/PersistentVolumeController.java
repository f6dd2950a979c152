package io.fleetkit.storage;

import io.fleetkit.api.core.ClaimReference;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.storage.provision.VolumeProvisioner;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Kubernetes' PersistentVolume controller over an {@link ObjectStore}: binds claims to volumes with
 * {@link VolumeMatching}'s rules, provisions volumes through {@link VolumeProvisioner}s, moves volumes and claims through
 * their phases (volume Available, Bound, Released, Failed; claim Pending, Bound, Lost) and reclaims released volumes
 * (Retain keeps them, Delete deletes the storage and the object; Recycle is deprecated and fails the volume).
 *
 * <p>Each sync makes upstream's decisions ({@code pv_controller.go}): a claim is unbound until it carries
 * {@value io.fleetkit.api.storage.StorageAnnotations#BIND_COMPLETED}; a binding writes the volume first (claim
 * reference, {@code bound-by-controller}, phase Bound), then the claim ({@code volumeName}, {@code bind-completed},
 * phase Bound). Each write carries the resourceVersion it was read at, so two claims racing for one volume cannot
 * both get it: the loser's write is a conflict and it looks again. Each sync repairs any half-done binding.
 *
 * <p>Claims of a WaitForFirstConsumer class are left to the scheduler (its VolumeBinding plugin binds them or sets
 * {@value io.fleetkit.api.storage.StorageAnnotations#SELECTED_NODE} to ask for provisioning). A claim's sync that
 * provisions saves the new volume bound to the claim; the claim's next sync binds it ({@link #syncAll()} runs that
 * next sync at once). A failed provisioning sets the claim's {@value #PROVISIONING_FAILED} condition and is retried
 * by later syncs after an exponential backoff on the controller's clock. The controller reports what it does as
 * events with upstream's reasons (the constants here) to the builder's {@link Builder#events recorder}.
 *
 * <p>Drive it with {@link #syncAll()} (or {@link #syncClaim}/{@link #syncVolume}). Thread-safe: concurrent syncs are
 * serialised by the store's optimistic concurrency only.
 *
 * <p>The work is split along upstream's seams, in package-private types: the claim side of a sync
 * ({@code ClaimSync}), the volume side with reclaim ({@code VolumeSync}), binding ({@code ClaimBinder}) and
 * provisioning ({@code ClaimProvisioner}, with its {@code ProvisioningBackoff}).
 */
public final class PersistentVolumeController {
  /** The claim condition type (and reason) of a failed provisioning; also the reason of its Warning event. */
  public static final String PROVISIONING_FAILED = "ProvisioningFailed";
  /**
   * Event reason (Normal, on a claim): no volume matches a claim that has no class to provision from; or (Warning)
   * the volume a claim names is bound to another claim.
   */
  public static final String FAILED_BINDING = "FailedBinding";
  /**
   * Event reason (Warning): the volume a claim names does not satisfy it (size, class, volume mode, access modes),
   * or a volume reserved for a claim has the other volume mode (then on both).
   */
  public static final String VOLUME_MISMATCH = "VolumeMismatch";
  /** Event reason (Normal, on a claim): its class binds on first consumer and no node is selected yet. */
  public static final String WAIT_FOR_FIRST_CONSUMER = "WaitForFirstConsumer";
  /** Event reason (Warning, on a claim): a bound claim's volume is gone or it lost its {@code volumeName}. */
  public static final String CLAIM_LOST = "ClaimLost";
  /** Event reason (Warning, on a claim): the volume a bound claim names is bound to another claim. */
  public static final String CLAIM_MISBOUND = "ClaimMisbound";
  /** Event reason (Normal, on a claim): a volume was provisioned for it. */
  public static final String PROVISIONING_SUCCEEDED = "ProvisioningSucceeded";
  /** Event reason (Normal, on a claim): its class's provisioner is external; the claim waits for it. */
  public static final String EXTERNAL_PROVISIONING = "ExternalProvisioning";
  /** Event reason (Warning, on a claim): a provisioned volume could not be saved, nor its storage deleted. */
  public static final String PROVISIONING_CLEANUP_FAILED = "ProvisioningCleanupFailed";
  /** Event reason (Warning, on a volume): deleting a released volume of policy Delete failed. */
  public static final String VOLUME_FAILED_DELETE = "VolumeFailedDelete";
  /**
   * The finalizer upstream puts on dynamically provisioned volumes of policy Delete (HonorPVReclaimPolicy): the
   * controller removes it once it deleted the storage, then the volume goes away.
   */
  public static final String DELETION_PROTECTION_FINALIZER = "kubernetes.io/pv-controller";
  /** The prefix of dynamically provisioned volume names, followed by the claim's uid (as upstream). */
  public static final String VOLUME_NAME_PREFIX = "pvc-";

  private final ObjectStore store;
  private final Clock clock;
  private final Map<String, VolumeProvisioner> provisioners;
  private final ProvisioningBackoff backoff;
  private final ClaimBinder binder;
  private final ClaimProvisioner provisioning;
  private final VolumeSync volumes;
  private final ClaimSync claims;

  private PersistentVolumeController(Builder b) {
    this.store = b.store;
    this.clock = b.clock;
    this.provisioners = Map.copyOf(b.provisioners);
    StoreWrites writes = new StoreWrites(store, clock, b.events);
    this.backoff = new ProvisioningBackoff(b.initialBackoff, b.maxBackoff);
    this.binder = new ClaimBinder(store, writes, backoff);
    this.provisioning = new ClaimProvisioner(store, clock, provisioners, binder, writes, backoff);
    this.volumes = new VolumeSync(store, provisioners, writes, binder);
    this.claims = new ClaimSync(store, writes, binder, provisioning);
  }

  /** A builder for a controller on {@code store}. */
  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  public ObjectStore store() {
    return store;
  }

  public Clock clock() {
    return clock;
  }

  /** The provisioner registered under {@code name}, if any. */
  public Optional<VolumeProvisioner> provisioner(String name) {
    return Optional.ofNullable(provisioners.get(name));
  }

  /** When provisioning for the claim {@code namespace/name} may next be tried, if it failed before. */
  public Optional<Instant> nextProvisioningAttempt(String claimKey) {
    return backoff.nextAttempt(claimKey);
  }

  /**
   * Syncs every volume (so that new volumes become Available and released ones are reclaimed), then every claim,
   * then once more each claim that a volume is now bound to but that does not name it yet, such as a claim whose
   * volume its own sync just provisioned (upstream's volume sync queues such a claim again, so that it binds at
   * once).
   */
  public void syncAll() {
    for (PersistentVolume v : store.list(PersistentVolume.class).items()) {
      volumes.sync(v);
    }
    for (PersistentVolumeClaim c : store.list(PersistentVolumeClaim.class).items()) {
      claims.sync(c);
    }
    for (PersistentVolume v : store.list(PersistentVolume.class).items()) {
      ClaimReference ref = v.spec().claimRef();
      if (ref == null || ref.uid().isEmpty()) {
        continue;
      }
      store.get(PersistentVolumeClaim.class, ref.namespace(), ref.name())
          .filter(c -> c.metadata().uid().equals(ref.uid()) && c.spec().volumeName().isEmpty()
              && !VolumeMatching.volumeModeMismatch(c, v))
          .ifPresent(claims::sync);
    }
  }

  /**
   * Syncs the claim {@code namespace/name} once (upstream's {@code syncClaim}); an unknown claim is ignored.
   *
   * @return empty when the sync did what the claim needs, else why it could not (upstream's sync error; the next
   *     sync tries again)
   */
  public Optional<String> syncClaim(String namespace, String name) {
    return store.get(PersistentVolumeClaim.class, namespace, name).flatMap(claims::sync);
  }

  /**
   * Syncs the volume {@code name} once (upstream's {@code syncVolume}); an unknown volume is ignored.
   *
   * @return empty when the sync did what the volume needs, else why it could not (the next sync tries again)
   */
  public Optional<String> syncVolume(String name) {
    return store.get(PersistentVolume.class, "", name).flatMap(volumes::sync);
  }

  /**
   * Binds {@code volume} to {@code claim}: the volume first (claim reference, phase Bound), then the claim. Both
   * objects must be as last read: a volume changed meanwhile (e.g. taken by another claim) is a conflict, reported
   * as a value. Completes a half-done binding. A claim changed meanwhile is re-read, since the volume is ours by
   * then.
   *
   * @return empty when bound, else why not
   */
  public Optional<String> bind(PersistentVolume volume, PersistentVolumeClaim claim) {
    return binder.bind(volume, claim);
  }

  /**
   * The volume side of {@link #bind} alone: the volume's claim reference to {@code claim} and phase Bound, the claim
   * left as it is. The scheduler reserves every static volume of a pod first and binds the claims (whose
   * {@code volumeName} can be set only once) when all of the pod's volumes are in place.
   *
   * @return empty when reserved, else why not
   */
  public Optional<String> reserve(PersistentVolume volume, PersistentVolumeClaim claim) {
    return binder.reserve(volume, claim);
  }

  /**
   * Undoes a {@link #reserve}: the volume's claim reference is cleared, or only its uid when the user had pre-bound
   * the volume to the claim (phase Available). Used to roll back a pod's volumes when one of its claims could not be
   * bound.
   */
  public void unreserve(String volumeName) {
    store.get(PersistentVolume.class, "", volumeName).ifPresent(pv -> {
      try {
        binder.unbindVolume(pv);
      } catch (io.fleetkit.api.ConflictException | io.fleetkit.api.NotFoundException e) {
        // changed or gone meanwhile: the controller's next sync of the volume settles it
      }
    });
  }


  /**
   * Deletes a volume now: its storage through the provisioner that created it (if any), then the object. Used to
   * undo a provisioning when a pod's other claims could not be bound.
   *
   * @return empty when deleted (or already gone), else why not
   */
  public Optional<String> deleteVolume(String name) {
    return provisioning.deleteVolume(name);
  }

  /**
   * Provisions a volume for {@code claim} through its class's provisioner and binds it, unless a failure earlier
   * is still backing off. A failure sets the claim's {@value #PROVISIONING_FAILED} condition and schedules the
   * next attempt after {@code initialBackoff * 2^(failures-1)}, at most {@code maxBackoff}.
   *
   * @param node the node the scheduler selected (WaitForFirstConsumer), or {@code null}
   * @return empty when the claim is bound to a new volume, else why not
   */
  public Optional<String> provision(PersistentVolumeClaim claim, @Nullable Node node) {
    try {
      return provisioning.provision(claim, node);
    } catch (io.fleetkit.api.ConflictException | io.fleetkit.api.NotFoundException e) {
      return Optional.of("provisioning for claim " + claim.metadata().key() + ": " + e.getMessage());
    }
  }

  /** Configures a {@link PersistentVolumeController}. Not thread-safe. */
  public static final class Builder {
    private final ObjectStore store;
    private Clock clock = Clock.systemUTC();
    private final Map<String, VolumeProvisioner> provisioners = new LinkedHashMap<>();
    private Duration initialBackoff = Duration.ofSeconds(1);
    private Duration maxBackoff = Duration.ofMinutes(5);
    private EventRecorder events = EventRecorder.NOOP;

    private Builder(ObjectStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /** The clock for phase transition times and provisioning backoff; default the system UTC clock. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Where the controller's events go (default: dropped): the reasons are this class's constants, with upstream's
     * spelling and types ({@value #FAILED_BINDING}, {@value #VOLUME_MISMATCH}, {@value #WAIT_FOR_FIRST_CONSUMER},
     * {@value #CLAIM_LOST}, {@value #CLAIM_MISBOUND}, {@value #PROVISIONING_FAILED}, {@value #VOLUME_FAILED_DELETE}).
     */
    public Builder events(EventRecorder recorder) {
      this.events = Objects.requireNonNull(recorder, "recorder");
      return this;
    }

    /**
     * Registers a provisioner under its {@link VolumeProvisioner#name()}.
     *
     * @throws IllegalArgumentException if a provisioner of that name is registered
     */
    public Builder provisioner(VolumeProvisioner provisioner) {
      Objects.requireNonNull(provisioner, "provisioner");
      VolumeProvisioner old = provisioners.putIfAbsent(provisioner.name(), provisioner);
      if (old != null) {
        throw new IllegalArgumentException("persistent volume controller: provisioner " + provisioner.name()
            + " is already registered as " + old);
      }
      return this;
    }

    /**
     * Backoff after failed provisioning: {@code initial}, doubling per failure, at most {@code max} (defaults 1 s
     * and 5 min).
     *
     * @throws IllegalArgumentException if a duration is not positive or {@code max < initial}
     */
    public Builder provisioningBackoff(Duration initial, Duration max) {
      if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
        throw new IllegalArgumentException("persistent volume controller: provisioning backoff initial " + initial
            + " must be positive and not above max " + max);
      }
      this.initialBackoff = initial;
      this.maxBackoff = max;
      return this;
    }

    public PersistentVolumeController build() {
      return new PersistentVolumeController(this);
    }
  }
}
