package io.fleetkit.api.batch;

import java.util.List;
import java.util.Objects;

/**
 * Kubernetes' {@code JobStatus.uncountedTerminatedPods}: the UIDs of a Job's finished pods that its controller has
 * seen finish but not yet added to {@code status.succeeded} or {@code status.failed}. A pod's UID is written here
 * before its {@value Job#TRACKING_FINALIZER} finalizer is removed, and moves to the counters once the finalizer is
 * gone, so that a pod is counted exactly once even if the controller stops in between.
 *
 * @param succeeded UIDs of succeeded pods not counted yet, in the order they were seen
 * @param failed UIDs of failed pods not counted yet, in the order they were seen
 */
public record UncountedTerminatedPods(List<String> succeeded, List<String> failed) {
  /** No uncounted pods. */
  public static final UncountedTerminatedPods EMPTY = new UncountedTerminatedPods(List.of(), List.of());

  public UncountedTerminatedPods {
    succeeded = List.copyOf(Objects.requireNonNull(succeeded, "succeeded"));
    failed = List.copyOf(Objects.requireNonNull(failed, "failed"));
  }

  /** Whether no pod is waiting to be counted. */
  public boolean isEmpty() {
    return succeeded.isEmpty() && failed.isEmpty();
  }
}
