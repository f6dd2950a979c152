package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.QuotaReservation;
import io.fleetkit.queueing.Workload;
import java.time.Instant;

/** An admitted workload with its quota usage as sparse (flavor-resource index, milli-value) pairs. */
public final class AdmittedWorkload {
  final Workload workload;
  final CqState cq;
  final int[] frs;
  final long[] values;
  final QuotaReservation admission;
  final long sequence;

  AdmittedWorkload(Workload workload, CqState cq, int[] frs, long[] values, QuotaReservation admission, long sequence) {
    this.workload = workload;
    this.cq = cq;
    this.frs = frs;
    this.values = values;
    this.admission = admission;
    this.sequence = sequence;
  }

  public Workload workload() {
    return workload;
  }

  public QuotaReservation admission() {
    return admission;
  }

  public String key() {
    return admission.workload();
  }

  int priority() {
    return workload.priority();
  }

  Instant admittedAt() {
    return admission.admittedAt();
  }

  boolean uses(boolean[] frSet) {
    for (int fr : frs) {
      if (frSet[fr]) {
        return true;
      }
    }
    return false;
  }
}
