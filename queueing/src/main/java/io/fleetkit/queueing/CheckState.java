package io.fleetkit.queueing;

/**
 * The state of one admission check of a workload (Kueue {@code CheckState}).
 *
 * <p>A workload with quota reserved is {@linkplain AdmissionEngine#isAdmitted admitted} only when every check that
 * applies to it is {@link #READY}.
 */
public enum CheckState {
  /**
   * The check has not been performed yet, or its controller re-evaluates it once quota is reserved. Every check
   * starts here, and is reset here when the workload is evicted.
   */
  PENDING("Pending"),
  /** The check passed. */
  READY("Ready"),
  /**
   * The check cannot pass now: the workload is evicted (its quota released) with reason {@code AdmissionCheck}, its
   * checks are reset to {@link #PENDING}, and it is queued again (after the check's {@code requeueAfterSeconds}, if
   * set). A pending workload with a check in this state is not considered for admission.
   */
  RETRY("Retry"),
  /**
   * The check will not pass in the near future: the workload is deactivated (evicted and taken out of its queue
   * until {@linkplain AdmissionEngine#reactivate reactivated}).
   */
  REJECTED("Rejected");

  private final String apiName;

  CheckState(String apiName) {
    this.apiName = apiName;
  }

  /** Kueue's spelling, e.g. {@code Retry}. */
  public String apiName() {
    return apiName;
  }
}
