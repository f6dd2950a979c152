package io.fleetkit.queueing;

/**
 * Which kind of priority class a {@link Workload}'s priority came from (Kueue v1beta1's {@code
 * spec.priorityClassSource}; v1beta2's {@code spec.priorityClassRef} group and kind).
 */
public enum PriorityClassSource {
  /** No class: the priority was given, or is the default 0 (Kueue's empty source, no {@code priorityClassRef}). */
  NONE(""),
  /** A Kueue {@link WorkloadPriorityClass}, named by the job's {@code kueue.x-k8s.io/priority-class} label. */
  WORKLOAD_PRIORITY_CLASS("kueue.x-k8s.io/workloadpriorityclass"),
  /** A pod PriorityClass ({@code scheduling.k8s.io/v1}), named by the pod template's {@code priorityClassName}. */
  POD_PRIORITY_CLASS("scheduling.k8s.io/priorityclass");

  private final String apiValue;

  PriorityClassSource(String apiValue) {
    this.apiValue = apiValue;
  }

  /** The value of Kueue's {@code spec.priorityClassSource}: empty, or the group-qualified kind in lower case. */
  public String apiValue() {
    return apiValue;
  }

  /**
   * The source whose {@link #apiValue()} is {@code value}.
   *
   * @throws IllegalArgumentException naming the supported values (Kueue's CRD enum)
   */
  public static PriorityClassSource fromApiValue(String value) {
    for (PriorityClassSource s : values()) {
      if (s.apiValue.equals(value)) {
        return s;
      }
    }
    throw new IllegalArgumentException("spec.priorityClassSource: Unsupported value: \"" + value
        + "\": supported values: \"kueue.x-k8s.io/workloadpriorityclass\", \"scheduling.k8s.io/priorityclass\", \"\"");
  }
}
