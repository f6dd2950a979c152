package io.fleetkit.queueing.internal;

import io.fleetkit.api.Violations;
import io.fleetkit.queueing.PriorityClassSource;
import io.fleetkit.queueing.Workload;
import io.fleetkit.queueing.WorkloadPriority;

/**
 * Kueue's rules on changing a Workload's priority (the CEL rules of its Workload CRD, v1beta1's {@code
 * priorityClassSource}/{@code priorityClassName} and v1beta2's {@code priorityClassRef}): {@code spec.priority} may
 * always change; while the workload holds quota ({@code QuotaReserved=True}) its class may be neither added nor
 * removed, its source is immutable, and its name is immutable unless the source is a {@code WorkloadPriorityClass}.
 */
final class PriorityUpdate {
  private PriorityUpdate() {}

  /**
   * Checks changing {@code current}'s priority to {@code next}.
   *
   * @param reserved whether {@code current} holds quota
   * @throws io.fleetkit.api.ValidationException with Kueue's message for every rule broken
   */
  static void validate(Workload current, WorkloadPriority next, boolean reserved) {
    if (!reserved) {
      return;
    }
    Violations v = new Violations(Workload.KIND, current.namespace(), current.name());
    PriorityClassSource was = current.priorityClassSource();
    if ((was == PriorityClassSource.NONE) != (next.source() == PriorityClassSource.NONE)) {
      v.add("spec.priorityClassRef", "priorityClassRef is immutable while workload quota reserved",
          next.source().apiValue() + (next.className().isEmpty() ? "" : "/" + next.className()));
    } else if (was != next.source()) {
      v.add("spec.priorityClassSource", "priorityClassSource is immutable while workload quota reserved",
          next.source().apiValue());
    } else if (was == PriorityClassSource.POD_PRIORITY_CLASS
        && !current.priorityClassName().equals(next.className())) {
      v.add("spec.priorityClassName", "priorityClassName is immutable while workload quota reserved and "
          + "priorityClassSource is not equal to kueue.x-k8s.io/workloadpriorityclass", next.className());
    }
    v.throwIfAny();
  }
}
