package io.fleetkit.queueing;

import io.fleetkit.api.Violations;
import java.util.Objects;

/**
 * A cluster-scoped priority for workloads only (Kueue {@code WorkloadPriorityClass}, {@code kueue.x-k8s.io}): a job
 * labelled {@value #LABEL} with its name queues with its {@code value}, whatever priority its pods get from their own
 * PriorityClass (the pods keep theirs for the kube-scheduler). The engine holds them ({@link
 * AdmissionEngine.Builder#workloadPriorityClass}, {@link AdmissionEngine#putWorkloadPriorityClass}).
 *
 * <p>Validation (Kueue's CRD): the name is a DNS subdomain; the description at most {@value #MAX_DESCRIPTION}
 * characters (the v1beta2 schema, Kueue's storage version; v1beta1 sets no limit). The value is any int32.
 *
 * @param name the class's name, a DNS subdomain
 * @param value the priority workloads of this class get; higher is more important
 * @param description when the class should be used (free text, may be empty)
 */
public record WorkloadPriorityClass(String name, int value, String description) {
  public static final String KIND = "WorkloadPriorityClass";
  /** Kueue's API group and version of the kind. */
  public static final String API_VERSION = "kueue.x-k8s.io/v1beta1";
  /** The job label naming the WorkloadPriorityClass of the job's workload (Kueue's {@code WorkloadPriorityClassLabel}). */
  public static final String LABEL = "kueue.x-k8s.io/priority-class";
  /** Kueue's {@code maxLength} of {@code description} (v1beta2). */
  public static final int MAX_DESCRIPTION = 2048;

  public WorkloadPriorityClass {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    Violations v = new Violations(KIND, "", name);
    v.dnsSubdomain("metadata.name", name);
    int length = description.codePointCount(0, description.length());
    if (length > MAX_DESCRIPTION) {
      v.add("description", "Too long: may not be more than " + MAX_DESCRIPTION + " characters", length);
    }
    v.throwIfAny();
  }

  /** A class without a description. */
  public static WorkloadPriorityClass of(String name, int value) {
    return new WorkloadPriorityClass(name, value, "");
  }

  /** This class with {@code value}. */
  public WorkloadPriorityClass withValue(int value) {
    return new WorkloadPriorityClass(name, value, description);
  }
}
