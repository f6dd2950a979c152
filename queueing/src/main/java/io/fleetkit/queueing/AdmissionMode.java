package io.fleetkit.queueing;

/**
 * How a {@link ClusterQueue} orders its pending workloads across its LocalQueues (Kueue's {@code
 * spec.admissionScope.admissionMode}, feature {@code AdmissionFairSharing}).
 */
public enum AdmissionMode {
  /**
   * Admission fair sharing: the workloads of the LocalQueue with the lowest decayed usage divided by its weight come
   * first ({@link AdmissionFairSharing}), then the queue's usual order. Takes effect only on an engine built with
   * {@link AdmissionEngine.Builder#admissionFairSharing}.
   */
  USAGE_BASED_ADMISSION_FAIR_SHARING("UsageBasedAdmissionFairSharing"),
  /** The queue's usual order: priority, then queue-order time. */
  NO_ADMISSION_FAIR_SHARING("NoAdmissionFairSharing");

  private final String apiName;

  AdmissionMode(String apiName) {
    this.apiName = apiName;
  }

  /** The name in Kueue's API: {@code UsageBasedAdmissionFairSharing} or {@code NoAdmissionFairSharing}. */
  public String apiName() {
    return apiName;
  }
}
