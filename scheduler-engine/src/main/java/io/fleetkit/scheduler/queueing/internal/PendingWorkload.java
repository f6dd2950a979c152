package io.fleetkit.scheduler.queueing.internal;

import io.fleetkit.scheduler.queueing.Workload;
import java.util.Comparator;

/** A workload waiting in a ClusterQueue, with its submission sequence as the last FIFO tie-breaker. */
final class PendingWorkload {
  /** Kueue's queue order: higher priority first, then older creation time, then submission order. */
  static final Comparator<PendingWorkload> ORDER =
      Comparator.comparingInt((PendingWorkload p) -> -p.workload.priority())
          .thenComparing(p -> p.workload.creationTime())
          .thenComparingLong(p -> p.sequence);

  final Workload workload;
  final long sequence;
  String lastReason = "";

  PendingWorkload(Workload workload, long sequence) {
    this.workload = workload;
    this.sequence = sequence;
  }

  String key() {
    return workload.key();
  }
}
