package io.fleetkit.storage;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.ClaimReference;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimCondition;
import io.fleetkit.api.core.PersistentVolumeClaimPhase;
import io.fleetkit.api.core.PersistentVolumeClaimStatus;
import io.fleetkit.api.core.PersistentVolumePhase;
import io.fleetkit.api.core.PersistentVolumeStatus;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.storage.VolumeBindingMode;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.storage.provision.ProvisionRequest;
import io.fleetkit.storage.provision.ProvisionResult;
import io.fleetkit.storage.provision.Provisioner;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kubernetes' PersistentVolume controller over an {@link ObjectStore}: binds claims to volumes with
 * {@link VolumeMatching}'s rules, provisions volumes through {@link Provisioner}s, moves volumes and claims through
 * their phases (volume Available, Bound, Released, Failed; claim Pending, Bound, Lost) and reclaims released volumes
 * (Retain keeps them, Delete deletes the storage and the object; Recycle is deprecated and fails the volume).
 *
 * <p>A binding writes the volume first (claim reference, {@code bound-by-controller}, phase Bound), then the claim
 * ({@code volumeName}, {@code bind-completed}, phase Bound). Each write carries the resourceVersion it was read at,
 * so two claims racing for one volume cannot both get it: the loser's write is a conflict and it looks again.
 * Each sync repairs any half-done binding.
 *
 * <p>Claims of a WaitForFirstConsumer class are left to the scheduler (its VolumeBinding plugin binds them or sets
 * {@value StorageAnnotations#SELECTED_NODE} to ask for provisioning). A failed provisioning sets the claim's
 * {@value #PROVISIONING_FAILED} condition and is retried by later syncs after an exponential backoff on the
 * controller's clock.
 *
 * <p>Drive it with {@link #syncAll()} (or {@link #syncClaim}/{@link #syncVolume}). Thread-safe: concurrent syncs are
 * serialised by the store's optimistic concurrency only.
 */
public final class PersistentVolumeController {
  private static final Logger LOG = LoggerFactory.getLogger(PersistentVolumeController.class);
  /** The claim condition type (and reason) of a failed provisioning. */
  public static final String PROVISIONING_FAILED = "ProvisioningFailed";
  /** The prefix of dynamically provisioned volume names, followed by the claim's uid (as upstream). */
  public static final String VOLUME_NAME_PREFIX = "pvc-";
  private static final String YES = "yes";
  private static final int ATTEMPTS = 5;

  private final ObjectStore store;
  private final Clock clock;
  private final Map<String, Provisioner> provisioners;
  private final Duration initialBackoff;
  private final Duration maxBackoff;
  private final Map<String, Backoff> backoffs = new ConcurrentHashMap<>();

  private record Backoff(int failures, Instant next) {}

  private PersistentVolumeController(Builder b) {
    this.store = b.store;
    this.clock = b.clock;
    this.provisioners = Map.copyOf(b.provisioners);
    this.initialBackoff = b.initialBackoff;
    this.maxBackoff = b.maxBackoff;
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
  public Optional<Provisioner> provisioner(String name) {
    return Optional.ofNullable(provisioners.get(name));
  }

  /** When provisioning for the claim {@code namespace/name} may next be tried, if it failed before. */
  public Optional<Instant> nextProvisioningAttempt(String claimKey) {
    Backoff b = backoffs.get(claimKey);
    return b == null ? Optional.empty() : Optional.of(b.next());
  }

  /**
   * Syncs every volume (so that new volumes become Available and released ones are reclaimed), then every claim.
   */
  public void syncAll() {
    for (PersistentVolume v : store.list(PersistentVolume.class).items()) {
      syncVolume(v);
    }
    for (PersistentVolumeClaim c : store.list(PersistentVolumeClaim.class).items()) {
      syncClaim(c);
    }
  }

  /** Syncs the claim {@code namespace/name}; an unknown claim is ignored. */
  public void syncClaim(String namespace, String name) {
    store.get(PersistentVolumeClaim.class, namespace, name).ifPresent(this::syncClaim);
  }

  /** Syncs the volume {@code name}; an unknown volume is ignored. */
  public void syncVolume(String name) {
    store.get(PersistentVolume.class, "", name).ifPresent(this::syncVolume);
  }

  private void syncClaim(PersistentVolumeClaim claim) {
    if (claim.metadata().deletionTimestamp() != null) {
      return;
    }
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      try {
        PersistentVolumeClaim c = admitDefaultClass(claim);
        if (c.spec().volumeName().isEmpty()) {
          syncUnboundClaim(c);
        } else {
          syncBoundClaim(c);
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

  private void syncUnboundClaim(PersistentVolumeClaim c) {
    String className = VolumeMatching.claimClass(c);
    StorageClass sc = className.isEmpty() ? null : store.get(StorageClass.class, "", className).orElse(null);
    boolean delay = sc != null && sc.volumeBindingMode() == VolumeBindingMode.WaitForFirstConsumer;
    List<PersistentVolume> volumes = store.list(PersistentVolume.class).items();
    Optional<PersistentVolume> match = VolumeMatching.findBestMatchForClaim(c, volumes, delay);
    if (match.isPresent()) {
      Optional<String> failure = bind(match.get(), c);
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
    provision(c, node);
  }

  private void syncBoundClaim(PersistentVolumeClaim c) {
    Optional<PersistentVolume> found = store.get(PersistentVolume.class, "", c.spec().volumeName());
    if (found.isEmpty()) {
      if (c.status().phase() == PersistentVolumeClaimPhase.Bound) {
        LOG.debug("claim {} lost its volume {}", c.metadata().key(), c.spec().volumeName());
        setClaimPhase(c, PersistentVolumeClaimPhase.Lost);
      }
      return;
    }
    PersistentVolume pv = found.get();
    ClaimReference ref = pv.spec().claimRef();
    if (ref == null) {
      if (satisfies(pv, c)) {
        bind(pv, c).ifPresent(f -> {
          throw new ConflictException(f);
        });
      }
    } else if (VolumeMatching.isBoundToClaim(pv, c)) {
      bind(pv, c).ifPresent(f -> {
        throw new ConflictException(f);
      });
    } else if (c.status().phase() == PersistentVolumeClaimPhase.Bound) {
      setClaimPhase(c, PersistentVolumeClaimPhase.Lost);
    }
  }

  /** Whether a volume the claim names by {@code volumeName} can serve it (size, mode, class, access modes). */
  private static boolean satisfies(PersistentVolume pv, PersistentVolumeClaim c) {
    return pv.storage().compareTo(c.requestedStorage()) >= 0 && !VolumeMatching.volumeModeMismatch(c, pv)
        && VolumeMatching.volumeClass(pv).equals(VolumeMatching.claimClass(c))
        && VolumeMatching.checkAccessModes(c, pv) && pv.metadata().deletionTimestamp() == null;
  }

  private void syncVolume(PersistentVolume pv) {
    try {
      ClaimReference ref = pv.spec().claimRef();
      if (ref == null || ref.uid().isEmpty()) {
        if (pv.status().phase() != PersistentVolumePhase.Available
            && pv.status().phase() != PersistentVolumePhase.Failed) {
          setVolumePhase(pv, PersistentVolumePhase.Available, "");
        }
        return;
      }
      Optional<PersistentVolumeClaim> claim = store.get(PersistentVolumeClaim.class, ref.namespace(), ref.name())
          .filter(c -> c.metadata().uid().equals(ref.uid()));
      if (claim.isEmpty()) {
        PersistentVolume released = pv;
        if (pv.status().phase() != PersistentVolumePhase.Released
            && pv.status().phase() != PersistentVolumePhase.Failed) {
          released = setVolumePhase(pv, PersistentVolumePhase.Released, "");
        }
        if (released.status().phase() == PersistentVolumePhase.Released) {
          reclaim(released);
        }
        return;
      }
      PersistentVolumeClaim c = claim.get();
      String volumeName = c.spec().volumeName();
      if (volumeName.isEmpty() || volumeName.equals(pv.metadata().name())) {
        if (pv.status().phase() != PersistentVolumePhase.Bound) {
          setVolumePhase(pv, PersistentVolumePhase.Bound, "");
        }
      } else if (YES.equals(pv.metadata().annotations().get(StorageAnnotations.BOUND_BY_CONTROLLER))) {
        // The claim went to another volume: give this one back.
        unbindVolume(pv);
      }
    } catch (ConflictException | NotFoundException e) {
      LOG.debug("sync of volume {}: {}; the next sync retries", pv.metadata().name(), e.getMessage());
    }
  }

  private void reclaim(PersistentVolume pv) {
    switch (pv.spec().persistentVolumeReclaimPolicy()) {
      case Retain -> LOG.debug("volume {} released; policy Retain keeps it", pv.metadata().name());
      case Delete -> {
        String by = pv.metadata().annotations().get(StorageAnnotations.PROVISIONED_BY);
        Provisioner p = by == null ? null : provisioners.get(by);
        if (p == null) {
          setVolumePhase(pv, PersistentVolumePhase.Failed, "no deletable volume plugin for volume "
              + pv.metadata().name() + (by == null ? " (it was not dynamically provisioned)"
              : " (provisioner " + by + " is not registered)"));
          return;
        }
        Optional<String> failure = p.delete(pv);
        if (failure.isPresent()) {
          setVolumePhase(pv, PersistentVolumePhase.Failed, failure.get());
        } else {
          store.delete(PersistentVolume.class, "", pv.metadata().name());
        }
      }
      case Recycle -> setVolumePhase(pv, PersistentVolumePhase.Failed,
          "reclaim policy Recycle: " + PersistentVolume.RECYCLE_DEPRECATED);
    }
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
    String what = "binding volume " + volume.metadata().name() + " to claim " + claim.metadata().key();
    PersistentVolume pv = volume;
    try {
      ClaimReference ref = pv.spec().claimRef();
      if (ref != null && !VolumeMatching.isBoundToClaim(pv, claim)) {
        return Optional.of(what + ": the volume is bound to claim " + ref.namespace() + "/" + ref.name());
      }
      if (ref == null || ref.uid().isEmpty()) {
        ObjectMeta meta = ref == null ? annotate(pv.metadata(), StorageAnnotations.BOUND_BY_CONTROLLER, YES)
            : pv.metadata();
        pv = store.update(pv.withMetadata(meta).withSpec(pv.spec().withClaimRef(ClaimReference.to(claim))));
      }
      if (pv.status().phase() != PersistentVolumePhase.Bound) {
        pv = setVolumePhase(pv, PersistentVolumePhase.Bound, "");
      }
    } catch (ConflictException e) {
      return Optional.of(what + ": the volume changed meanwhile (conflict)");
    } catch (NotFoundException e) {
      return Optional.of(what + ": the volume was deleted");
    }
    PersistentVolumeClaim c = claim;
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      try {
        if (!c.spec().volumeName().equals(pv.metadata().name())
            || !c.metadata().annotations().containsKey(StorageAnnotations.BIND_COMPLETED)) {
          ObjectMeta meta = annotate(c.metadata(), StorageAnnotations.BIND_COMPLETED, YES);
          if (c.spec().volumeName().isEmpty()) {
            meta = annotate(meta, StorageAnnotations.BOUND_BY_CONTROLLER, YES);
          }
          c = store.update(c.withMetadata(meta).withSpec(c.spec().withVolumeName(pv.metadata().name())));
        }
        if (c.status().phase() != PersistentVolumeClaimPhase.Bound || !c.status().conditions().isEmpty()) {
          store.updateStatus(c.withStatus(PersistentVolumeClaimStatus.bound(pv.spec().accessModes(),
              ResourceList.builder().put("storage", pv.storage()).build())));
        }
        backoffs.remove(c.metadata().key());
        return Optional.empty();
      } catch (ConflictException e) {
        Optional<PersistentVolumeClaim> latest =
            store.get(PersistentVolumeClaim.class, c.metadata().namespace(), c.metadata().name());
        if (latest.isEmpty()) {
          return Optional.of(what + ": the claim was deleted");
        }
        c = latest.get();
      } catch (NotFoundException e) {
        return Optional.of(what + ": the claim was deleted");
      }
    }
    return Optional.of(what + ": gave up after " + ATTEMPTS + " write conflicts on the claim");
  }

  /**
   * Undoes a binding this controller (or the scheduler) made: the volume's claim reference is cleared (phase
   * Available) and the claim's {@code volumeName} emptied (phase Pending). Used to roll back a pod's claims when
   * one of them could not be bound.
   */
  public void unbind(String volumeName, String claimNamespace, String claimName) {
    store.get(PersistentVolume.class, "", volumeName).ifPresent(pv -> {
      try {
        unbindVolume(pv);
      } catch (ConflictException | NotFoundException e) {
        LOG.debug("unbinding volume {}: {}", volumeName, e.getMessage());
      }
    });
    store.get(PersistentVolumeClaim.class, claimNamespace, claimName).ifPresent(c -> {
      try {
        Map<String, String> ann = new LinkedHashMap<>(c.metadata().annotations());
        ann.remove(StorageAnnotations.BIND_COMPLETED);
        ann.remove(StorageAnnotations.BOUND_BY_CONTROLLER);
        PersistentVolumeClaim u = store.update(c.withMetadata(c.metadata().toBuilder().annotations(ann).build())
            .withSpec(c.spec().withVolumeName("")));
        store.updateStatus(u.withStatus(PersistentVolumeClaimStatus.INITIAL));
      } catch (ConflictException | NotFoundException e) {
        LOG.debug("unbinding claim {}/{}: {}", claimNamespace, claimName, e.getMessage());
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
    Optional<PersistentVolume> pv = store.get(PersistentVolume.class, "", name);
    if (pv.isEmpty()) {
      return Optional.empty();
    }
    String by = pv.get().metadata().annotations().get(StorageAnnotations.PROVISIONED_BY);
    Provisioner p = by == null ? null : provisioners.get(by);
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

  private void unbindVolume(PersistentVolume pv) {
    Map<String, String> ann = new LinkedHashMap<>(pv.metadata().annotations());
    ann.remove(StorageAnnotations.BOUND_BY_CONTROLLER);
    PersistentVolume u = store.update(pv.withMetadata(pv.metadata().toBuilder().annotations(ann).build())
        .withSpec(pv.spec().withClaimRef(null)));
    setVolumePhase(u, PersistentVolumePhase.Available, "");
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
    String key = claim.metadata().key();
    Instant now = clock.instant();
    Backoff b = backoffs.get(key);
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
    Provisioner p = provisioners.get(sc.get().provisioner());
    if (p == null) {
      return Optional.of("claim " + key + ": waiting for external provisioner " + sc.get().provisioner()
          + " (not registered with this controller)");
    }
    String volumeName = VOLUME_NAME_PREFIX + (claim.metadata().uid().isEmpty() ? claim.metadata().name()
        : claim.metadata().uid());
    Optional<PersistentVolume> existing = store.get(PersistentVolume.class, "", volumeName);
    if (existing.isPresent()) {
      return bind(existing.get(), claim);
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
    return bind(created, claim);
  }

  private String recordFailure(PersistentVolumeClaim claim, StorageClass sc, String message, Instant now,
      @Nullable Backoff previous) {
    int failures = previous == null ? 1 : previous.failures() + 1;
    Duration delay = initialBackoff.multipliedBy(1L << Math.min(failures - 1, 30));
    if (delay.compareTo(maxBackoff) > 0 || delay.isNegative()) {
      delay = maxBackoff;
    }
    Instant next = now.plus(delay);
    backoffs.put(claim.metadata().key(), new Backoff(failures, next));
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
    updateClaimStatus(claim, x -> x.withStatus(new PersistentVolumeClaimStatus(s.phase(), s.accessModes(),
        s.capacity(), conds)));
    LOG.debug("claim {}: {}", claim.metadata().key(), text);
    return text;
  }

  private void setClaimPhase(PersistentVolumeClaim c, PersistentVolumeClaimPhase phase) {
    PersistentVolumeClaimStatus s = c.status();
    updateClaimStatus(c, x -> x.withStatus(new PersistentVolumeClaimStatus(phase, s.accessModes(), s.capacity(),
        s.conditions())));
  }

  private void updateClaimStatus(PersistentVolumeClaim c, UnaryOperator<PersistentVolumeClaim> change) {
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

  private PersistentVolume setVolumePhase(PersistentVolume pv, PersistentVolumePhase phase, String message) {
    return store.updateStatus(pv.withStatus(new PersistentVolumeStatus(phase, message,
        phase == PersistentVolumePhase.Failed ? "VolumeFailedReclaim" : "", clock.instant())));
  }

  private static ObjectMeta annotate(ObjectMeta m, String key, String value) {
    if (value.equals(m.annotations().get(key))) {
      return m;
    }
    return m.toBuilder().annotation(key, value).build();
  }

  /** Configures a {@link PersistentVolumeController}. Not thread-safe. */
  public static final class Builder {
    private final ObjectStore store;
    private Clock clock = Clock.systemUTC();
    private final Map<String, Provisioner> provisioners = new LinkedHashMap<>();
    private Duration initialBackoff = Duration.ofSeconds(1);
    private Duration maxBackoff = Duration.ofMinutes(5);

    private Builder(ObjectStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /** The clock for phase transition times and provisioning backoff; default the system UTC clock. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Registers a provisioner under its {@link Provisioner#name()}.
     *
     * @throws IllegalArgumentException if a provisioner of that name is registered
     */
    public Builder provisioner(Provisioner provisioner) {
      Objects.requireNonNull(provisioner, "provisioner");
      Provisioner old = provisioners.putIfAbsent(provisioner.name(), provisioner);
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
