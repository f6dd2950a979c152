package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.reconcile.ObjectKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The Job controller's pod-failure backoff records, upstream's {@code backoffStore} ({@code
 * pkg/controller/job/backoff_utils.go}): one {@link JobBackoffRecord} per Job, kept in memory for the controller's
 * life. Each sync derives a record from the stored one and the pods that finished since ({@link #newRecord}: the
 * pods not counted in the status yet, so a pod counted as failed because it was deleted while running is a failure
 * too); the controller stores it ({@link #update}) once the status that counts those pods is written, and drops it
 * when the Job finishes or is gone ({@link #remove}). A failed pod thus delays new pods even after it is gone.
 *
 * <p>Thread-safe: the controller's workers share it (one key at a time each).
 */
public final class JobBackoffStore {
  private final Map<ObjectKey, JobBackoffRecord> records = new ConcurrentHashMap<>();

  /** The stored record of {@code key}, or {@code null}. */
  public @Nullable JobBackoffRecord get(ObjectKey key) {
    return records.get(key);
  }

  /** Upstream's {@code updateBackoffRecord}: stores {@code record} under its key, replacing the one there. */
  public void update(JobBackoffRecord record) {
    records.put(record.key(), record);
  }

  /** Upstream's {@code removeBackoffRecord}: forgets the record of {@code key}, if any. */
  public void remove(ObjectKey key) {
    records.remove(key);
  }

  /**
   * Upstream's {@code newBackoffRecord}: the stored record of {@code key} (an empty one when there is none) with the
   * pods that finished since. With new failures only, they add to the count and the latest is the last failure;
   * with a new success, the count restarts from the failures finished strictly after the latest success. Nothing is
   * stored.
   *
   * @param newSucceeded the succeeded pods not counted yet
   * @param newFailed the failed pods not counted yet (those an {@code Ignore} rule matches included)
   */
  public JobBackoffRecord newRecord(ObjectKey key, List<Pod> newSucceeded, List<Pod> newFailed) {
    JobBackoffRecord old = records.get(key);
    JobBackoffRecord base = old != null ? old : JobBackoffRecord.empty(key);
    List<Instant> failed = sortedFinishTimes(newFailed);
    if (newSucceeded.isEmpty()) {
      if (failed.isEmpty()) {
        return base;
      }
      return new JobBackoffRecord(key, base.failuresAfterLastSuccess() + failed.size(),
          failed.get(failed.size() - 1));
    }
    List<Instant> succeeded = sortedFinishTimes(newSucceeded);
    Instant lastSuccess = succeeded.get(succeeded.size() - 1);
    int failures = 0;
    Instant lastFailure = null;
    for (int i = failed.size() - 1; i >= 0 && failed.get(i).isAfter(lastSuccess); i--) {
      if (lastFailure == null) {
        lastFailure = failed.get(i);
      }
      failures++;
    }
    return new JobBackoffRecord(key, failures, lastFailure);
  }

  private static List<Instant> sortedFinishTimes(List<Pod> pods) {
    List<Instant> times = new ArrayList<>(pods.size());
    for (Pod p : pods) {
      times.add(finishedTime(p));
    }
    times.sort(Comparator.naturalOrder());
    return times;
  }

  /**
   * Upstream's {@code getFinishedTime}: when {@code pod} finished. The latest {@code finishedAt} when every container
   * (and every sidecar, a restartable init container) is terminated with one; else the last transition of a
   * {@code Ready=False} condition; else the deletion timestamp less the deletion's grace period (a pod deleted while
   * running); else the creation timestamp ({@link Instant#EPOCH} when unset).
   */
  public static Instant finishedTime(Pod pod) {
    Instant t = finishTimeFromContainers(pod);
    if (t != null) {
      return t;
    }
    PodCondition ready = pod.status().condition(PodCondition.READY);
    if (ready != null && ready.status() == ConditionStatus.False && ready.lastTransitionTime() != null) {
      return ready.lastTransitionTime();
    }
    Instant deleted = pod.metadata().deletionTimestamp();
    if (deleted != null) {
      Long grace = pod.metadata().deletionGracePeriodSeconds();
      return grace == null ? deleted : deleted.minusSeconds(grace);
    }
    Instant created = pod.metadata().creationTimestamp();
    return created != null ? created : Instant.EPOCH;
  }

  /** Upstream's {@code getFinishTimeFromContainers}: {@code null} unless every container counted has finished. */
  private static @Nullable Instant finishTimeFromContainers(Pod pod) {
    Instant latest = latestFinishTime(null, pod.status().containerStatuses(), null);
    if (latest == null) {
      return null;
    }
    Set<String> sidecars = new HashSet<>();
    for (Container c : pod.spec().initContainers()) {
      if (c.isRestartable()) {
        sidecars.add(c.name());
      }
    }
    return latestFinishTime(latest, pod.status().initContainerStatuses(), sidecars);
  }

  private static @Nullable Instant latestFinishTime(@Nullable Instant previous, List<ContainerStatus> statuses,
      @Nullable Set<String> only) {
    Instant latest = previous;
    for (ContainerStatus s : statuses) {
      if (only != null && !only.contains(s.name())) {
        continue;
      }
      Instant finished = s.state().finishedAt();
      if (s.state().type() != ContainerStateType.Terminated || finished == null) {
        return null;
      }
      if (latest == null || latest.isBefore(finished)) {
        latest = finished;
      }
    }
    return latest;
  }
}
