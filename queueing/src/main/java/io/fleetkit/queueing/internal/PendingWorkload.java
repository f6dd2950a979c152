package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.Workload;
import java.util.Comparator;
import org.jspecify.annotations.Nullable;

/** A workload waiting in a ClusterQueue, with its submission sequence as the last FIFO tie-breaker. */
final class PendingWorkload {
  /**
   * Kueue's queue order: higher priority first, then the older queue-order time (the creation time, or the eviction
   * time of a workload {@code waitForPodsReady} evicted with the Eviction timestamp), then submission order.
   */
  static final Comparator<PendingWorkload> ORDER = PendingWorkload::compare;

  final Workload workload;
  final long sequence;
  final String key;
  final int priority;
  final long createdSecond;
  final int createdNano;
  String lastReason = "";
  /**
   * How far the flavor search of the last cycle that nominated this workload got (Kueue's {@code
   * Info.LastAssignment}), for the next to resume after it; {@code null} to start at the first flavor. It lives as
   * long as this entry stays in its ClusterQueue: an evicted workload is queued again as a new entry, without it, and
   * {@link PendingWorkloads} drops it when the entry is queued in another ClusterQueue.
   */
  @Nullable FlavorScanProgress lastAssignment;

  PendingWorkload(Workload workload, long sequence) {
    this(workload, sequence, workload.creationTime());
  }

  /** A pending workload ordered by {@code orderTime} in place of its creation time (Kueue's queue-order timestamp). */
  PendingWorkload(Workload workload, long sequence, java.time.Instant orderTime) {
    this.workload = workload;
    this.sequence = sequence;
    this.key = workload.key();
    this.priority = workload.priority();
    this.createdSecond = orderTime.getEpochSecond();
    this.createdNano = orderTime.getNano();
  }

  /**
   * This entry for {@code other}, the same workload with other pod counts: the same place in the queue order and
   * reason, without the flavor search's progress.
   */
  PendingWorkload withWorkload(Workload other) {
    PendingWorkload p = new PendingWorkload(other, sequence,
        java.time.Instant.ofEpochSecond(createdSecond, createdNano));
    p.lastReason = lastReason;
    return p;
  }

  private static int compare(PendingWorkload a, PendingWorkload b) {
    if (a.priority != b.priority) {
      return a.priority > b.priority ? -1 : 1;
    }
    if (a.createdSecond != b.createdSecond) {
      return a.createdSecond < b.createdSecond ? -1 : 1;
    }
    if (a.createdNano != b.createdNano) {
      return a.createdNano < b.createdNano ? -1 : 1;
    }
    return Long.compare(a.sequence, b.sequence);
  }

  String key() {
    return key;
  }
}
