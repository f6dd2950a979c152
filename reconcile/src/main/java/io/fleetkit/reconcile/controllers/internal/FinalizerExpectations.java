package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.ResourceEventHandler;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Upstream's {@code uidTrackingExpectations} ({@code finalizerExpectations} of the Job controller,
 * {@code tracking_utils.go}): by Job, the UIDs of the pods whose tracking finalizer the controller asked to remove
 * and whose update its pod informer has not shown yet. Until then the cache still shows those pods with the
 * finalizer, and a sync must not count them again. A UID is dropped when the informer shows the pod without the
 * finalizer or deleted (as the pod informer's handler: {@link #onUpdate}, {@link #onDelete}), when the removal
 * failed ({@link #observed}), or with the Job ({@link #forget}). No expiry: a pod that never reports back is dropped
 * when the Job goes.
 *
 * <p>Thread-safe: the informer thread observes while a worker reads and records.
 */
public final class FinalizerExpectations implements ResourceEventHandler<Pod> {
  private final Map<ObjectKey, Set<String>> expected = new ConcurrentHashMap<>();

  /** Upstream's {@code expectFinalizersRemoved}: the controller is about to remove the finalizer of {@code uids}. */
  public void expectRemovals(ObjectKey job, Collection<String> uids) {
    if (!uids.isEmpty()) {
      expected.computeIfAbsent(job, k -> ConcurrentHashMap.newKeySet()).addAll(uids);
    }
  }

  /** Upstream's {@code finalizerRemovalObserved}: {@code uid} is no longer awaited (seen, or its removal failed). */
  public void observed(ObjectKey job, String uid) {
    Objects.requireNonNull(uid, "uid");
    expected.computeIfPresent(job, (k, set) -> {
      set.remove(uid);
      return set.isEmpty() ? null : set;
    });
  }

  /** Upstream's {@code getExpectedUIDs}: the UIDs still awaited for {@code job} (a copy). */
  public Set<String> expectedUids(ObjectKey job) {
    Set<String> set = expected.get(job);
    return set == null ? Set.of() : Set.copyOf(set);
  }

  /** Upstream's {@code deleteExpectations}: the Job is gone. */
  public void forget(ObjectKey job) {
    expected.remove(job);
  }

  /**
   * Upstream's {@code updatePod}: a pod of a Job seen without the tracking finalizer is no longer awaited, for its
   * old controller too when the reference changed (during an ownership transfer both may have asked).
   */
  @Override
  public void onUpdate(Pod oldPod, Pod newPod) {
    OwnerReference oldRef = oldPod.metadata().controllerRef();
    OwnerReference newRef = newPod.metadata().controllerRef();
    boolean removed = !JobPodTracking.hasTrackingFinalizer(newPod);
    if (removed && oldRef != null && !oldRef.equals(newRef)) {
      observed(oldRef, newPod);
    }
    if (removed) {
      observed(newRef, newPod);
    }
  }

  /** Upstream's {@code deletePod} with a final state: the pod is gone, its finalizer with it. */
  @Override
  public void onDelete(Pod pod, boolean finalStateUnknown) {
    observed(pod.metadata().controllerRef(), pod);
  }

  private void observed(@Nullable OwnerReference ref, Pod pod) {
    if (ref != null && ref.kind().equals(Job.KIND) && ref.apiVersion().equals(Job.API_VERSION)) {
      observed(ObjectKey.of(pod.metadata().namespace(), ref.name()), pod.metadata().uid());
    }
  }
}
