package io.fleetkit.scheduler.plugins.defaultpreemption;

import io.fleetkit.api.framework.PodInfo;
import java.time.Instant;
import java.util.Comparator;

/** Upstream's {@code util.MoreImportantPod} and {@code GetPodStartTime}. */
final class PodImportance {
  private PodImportance() {}

  /**
   * Orders the most important pod first: higher priority first, then the older start time first. A pod that has not
   * started counts as starting {@code now}.
   */
  static Comparator<PodInfo> mostImportantFirst(Instant now) {
    return (a, b) -> {
      if (a.priority() != b.priority()) {
        return Integer.compare(b.priority(), a.priority());
      }
      return startTime(a, now).compareTo(startTime(b, now));
    };
  }

  /** {@code status.startTime}, or {@code now} for pods that have not started (assumed or just bound). */
  static Instant startTime(PodInfo pod, Instant now) {
    Instant t = pod.pod().status().startTime();
    return t == null ? now : t;
  }
}
