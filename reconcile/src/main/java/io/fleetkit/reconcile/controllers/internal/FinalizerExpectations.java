package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.core.Pod;
import io.fleetkit.reconcile.ObjectKey;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Upstream's {@code uidTrackingExpectations} ({@code finalizerExpectations} of the Job controller,
 * {@code tracking_utils.go}): by Job, the UIDs of the pods whose tracking finalizer the controller asked to remove
 * and whose update its pod informer has not shown yet. Until then the cache still shows those pods with the
 * finalizer, and a sync must not count them again. A UID is dropped when the informer shows the pod without the
 * finalizer or deleted ({@link #observed}), when the removal failed, or with the Job ({@link #forget}). No
 * expiry: a pod that never reports back is dropped when the Job goes.
 *
 * <p>Thread-safe: the informer thread observes while a worker reads and records.
 */
public final class FinalizerExpectations {
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
   * The pod-informer handler's part (upstream's {@code updatePod} and {@code deletePod}): {@code pod}, controlled
   * by the Job {@code job}, was deleted, or updated to a state without the finalizer.
   */
  public void podChanged(ObjectKey job, Pod pod, boolean deleted) {
    if (deleted || !JobPodTracking.hasTrackingFinalizer(pod)) {
      observed(job, pod.metadata().uid());
    }
  }
}
