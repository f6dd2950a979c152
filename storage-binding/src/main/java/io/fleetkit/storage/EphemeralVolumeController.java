package io.fleetkit.storage;

import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.metrics.Counter;
import io.fleetkit.api.metrics.MetricDescriptor;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.store.ListResult;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEventType;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Kubernetes' ephemeral volume controller ({@code pkg/controller/volume/ephemeral/controller.go}) over an
 * {@link ObjectStore}: for each pod with a generic ephemeral volume it creates the volume's claim
 * ({@link EphemeralVolumes#claimFor}: {@code <pod>-<volume>} in the pod's namespace, owned by the pod, with the
 * template's labels, annotations and spec). The claim then binds as any other (the PersistentVolume controller, or
 * the scheduler's VolumeBinding plugin for WaitForFirstConsumer classes), and the garbage collector deletes it with
 * the pod.
 *
 * <p>A claim of that name that the pod does not control is left alone: the sync fails with upstream's error
 * ({@code PVC ns/name was not created for pod ns/pod (pod is not owner)}), records a Warning
 * {@value #FAILED_BINDING} event on the pod, and the pod cannot be scheduled (the VolumeBinding plugin refuses it
 * with the same text). Pods being deleted are skipped. The pod spec is immutable, so an existing claim of the pod is
 * never changed; a claim deleted while its pod lives is created again by the next sync, as upstream re-queues the
 * pod on a claim's deletion.
 *
 * <p>Metrics, with upstream's names: {@value #CREATE_TOTAL} (every create call) and {@value #CREATE_FAILURES_TOTAL}
 * (the failed ones).
 *
 * <p>Drive it with {@link #syncAll()} or {@link #syncPod}, which read every pod; or, as upstream's informers do, with
 * {@link #follow()} and then {@link #syncChanged()}, which syncs only the pods with ephemeral volumes that were added
 * or changed, whose claim was deleted, or whose last sync failed: on a cluster of many pods, a periodic pass then costs
 * nothing when nothing happened. Thread-safe: syncs race only through the store (a claim created concurrently makes
 * one create fail; the next sync finds the claim).
 */
public final class EphemeralVolumeController {
  /** Event reason (Warning, on the pod): a claim could not be created or is not the pod's (upstream's events). */
  public static final String FAILED_BINDING = "FailedBinding";
  /** Upstream's {@code ephemeral_volume_controller_create_total}. */
  public static final String CREATE_TOTAL = "ephemeral_volume_controller_create_total";
  /** Upstream's {@code ephemeral_volume_controller_create_failures_total}. */
  public static final String CREATE_FAILURES_TOTAL = "ephemeral_volume_controller_create_failures_total";
  /** The create-attempts counter. */
  public static final MetricDescriptor CREATE_ATTEMPTS = MetricDescriptor.counter(CREATE_TOTAL,
      "Number of PersistentVolumeClaims creation requests");
  /** The failed-creates counter. */
  public static final MetricDescriptor CREATE_FAILURES = MetricDescriptor.counter(CREATE_FAILURES_TOTAL,
      "Number of PersistentVolumeClaims creation requests that failed");

  private final ObjectStore store;
  private final EventRecorder events;
  private final Counter attempts;
  private final Counter failures;
  /** Keys ({@code ns/name}) of the pods {@link #syncChanged} syncs next. */
  private final Set<String> changed = ConcurrentHashMap.newKeySet();

  private EphemeralVolumeController(Builder b) {
    this.store = b.store;
    this.events = EventRecorder.bestEffort(b.events);
    this.attempts = b.metrics.counter(CREATE_ATTEMPTS);
    this.failures = b.metrics.counter(CREATE_FAILURES);
  }

  /** A builder for a controller on {@code store}. */
  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  public ObjectStore store() {
    return store;
  }

  /**
   * Starts following the store: every pod with an ephemeral volume is marked now, and from then on a pod with one
   * that is added or changed (and not being deleted), and the pod that controls a deleted claim, are marked for
   * {@link #syncChanged}. Close the result to stop.
   */
  public AutoCloseable follow() {
    ListResult<Pod> now = store.list(Pod.class, "", EphemeralVolumeController::hasEphemeralVolume);
    for (Pod p : now.items()) {
      changed.add(p.metadata().key());
    }
    Watch pods = store.watch(Pod.class, now.resourceVersion(), e -> {
      Pod p = e.object();
      if (e.type() != WatchEventType.DELETED && p.metadata().deletionTimestamp() == null && hasEphemeralVolume(p)) {
        changed.add(p.metadata().key());
      }
    });
    Watch claims;
    try {
      claims = store.watch(PersistentVolumeClaim.class, now.resourceVersion(), e -> {
        OwnerReference owner = e.object().metadata().controllerRef();
        if (e.type() == WatchEventType.DELETED && owner != null && owner.kind().equals(Pod.KIND)) {
          changed.add(e.object().metadata().namespace() + "/" + owner.name());
        }
      });
    } catch (RuntimeException e) {
      pods.close();
      throw e;
    }
    return () -> {
      pods.close();
      claims.close();
    };
  }

  /**
   * Syncs the pods {@link #follow()} marked since the last call (see {@link #syncPod(String, String)}); a pod whose
   * sync fails stays marked and is tried again next time.
   *
   * @return the errors, one per pod that failed
   */
  public List<String> syncChanged() {
    List<String> errors = new ArrayList<>();
    if (changed.isEmpty()) {
      return errors;
    }
    List<String> keys = new ArrayList<>(changed);
    keys.sort(null);
    for (String key : keys) {
      changed.remove(key);
      int slash = key.indexOf('/');
      Optional<String> error = syncPod(key.substring(0, slash), key.substring(slash + 1));
      if (error.isPresent()) {
        errors.add(error.get());
        changed.add(key);
      }
    }
    return errors;
  }

  /** Whether {@code pod} has a generic ephemeral volume (upstream queues only such pods). */
  public static boolean hasEphemeralVolume(Pod pod) {
    for (Volume v : pod.spec().volumes()) {
      if (v.ephemeral() != null) {
        return true;
      }
    }
    return false;
  }

  /**
   * Syncs every pod that has a generic ephemeral volume and is not being deleted.
   *
   * @return the errors of the pods whose sync failed, each naming the pod (their next sync tries again)
   */
  public List<String> syncAll() {
    List<String> errors = new ArrayList<>();
    for (Pod p : store.list(Pod.class, "", EphemeralVolumeController::hasEphemeralVolume).items()) {
      if (p.metadata().deletionTimestamp() == null) {
        syncPod(p).ifPresent(errors::add);
      }
    }
    return errors;
  }

  /**
   * Upstream's {@code syncHandler} for the pod {@code namespace/name}: nothing for an unknown pod or one being
   * deleted; else each ephemeral volume's claim is created unless it exists, stopping at the first volume that
   * fails.
   *
   * @return empty when every claim of the pod is in place, else the error ({@code pod ns/name, ephemeral volume v:
   *     ...}), also recorded as a Warning {@value #FAILED_BINDING} event on the pod
   */
  public Optional<String> syncPod(String namespace, String name) {
    Optional<Pod> pod = store.get(Pod.class, namespace, name);
    if (pod.isEmpty() || pod.get().metadata().deletionTimestamp() != null) {
      return Optional.empty();
    }
    return syncPod(pod.get());
  }

  private Optional<String> syncPod(Pod pod) {
    for (Volume v : pod.spec().volumes()) {
      Optional<String> err = handleVolume(pod, v);
      if (err.isPresent()) {
        events.event(pod, Event.WARNING, FAILED_BINDING, "Create",
            "ephemeral volume " + v.name() + ": " + err.get());
        return Optional.of("pod " + pod.metadata().key() + ", ephemeral volume " + v.name() + ": " + err.get());
      }
    }
    return Optional.empty();
  }

  private Optional<String> handleVolume(Pod pod, Volume v) {
    if (v.ephemeral() == null) {
      return Optional.empty();
    }
    String claimName = EphemeralVolumes.claimName(pod, v);
    Optional<PersistentVolumeClaim> existing =
        store.get(PersistentVolumeClaim.class, pod.metadata().namespace(), claimName);
    if (existing.isPresent()) {
      return EphemeralVolumes.checkVolumeIsForPod(pod, existing.get()); // already created, or not the pod's
    }
    attempts.increment();
    try {
      store.create(EphemeralVolumes.claimFor(pod, v));
      return Optional.empty();
    } catch (FleetKitException e) { // a claim created meanwhile (conflict), refused by admission, store down
      failures.increment();
      return Optional.of("create PVC " + claimName + ": " + e.getMessage());
    }
  }

  /** Configures an {@link EphemeralVolumeController}. Not thread-safe. */
  public static final class Builder {
    private final ObjectStore store;
    private EventRecorder events = EventRecorder.NOOP;
    private MetricsRegistry metrics = MetricsRegistry.NOOP;

    private Builder(ObjectStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /** Where the {@value #FAILED_BINDING} events go (default: dropped). */
    public Builder events(EventRecorder recorder) {
      this.events = Objects.requireNonNull(recorder, "recorder");
      return this;
    }

    /** Where the create counters go (default: {@link MetricsRegistry#NOOP}). */
    public Builder metrics(MetricsRegistry registry) {
      this.metrics = Objects.requireNonNull(registry, "registry");
      return this;
    }

    public EphemeralVolumeController build() {
      return new EphemeralVolumeController(this);
    }
  }
}
