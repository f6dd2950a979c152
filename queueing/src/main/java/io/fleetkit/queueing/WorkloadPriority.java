package io.fleetkit.queueing;

import io.fleetkit.api.scheduling.PriorityClass;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A workload's priority and the class it came from (Kueue's {@code spec.priority} with {@code priorityClassSource}
 * and {@code priorityClassName}), and Kueue's lookups of it ({@code pkg/util/priority}):
 * {@link #fromWorkloadPriorityClass} for a job's {@value WorkloadPriorityClass#LABEL} label, {@link
 * #fromPriorityClass} for its pods' {@code priorityClassName}.
 *
 * @param value the priority; higher is more important
 * @param source the kind of class it came from, {@link PriorityClassSource#NONE} for none
 * @param className the class's name; empty exactly when {@code source} is {@link PriorityClassSource#NONE}
 */
public record WorkloadPriority(int value, PriorityClassSource source, String className) {
  /** Kueue's {@code DefaultPriority}: no class, 0. */
  public static final WorkloadPriority DEFAULT = new WorkloadPriority(0, PriorityClassSource.NONE, "");

  public WorkloadPriority {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(className, "className");
    if ((source == PriorityClassSource.NONE) != className.isEmpty()) {
      throw new IllegalArgumentException("priority class name \"" + className + "\" and source \""
          + source.apiValue() + "\": a class name needs a source and a source needs a class name");
    }
  }

  /** A priority that comes from no class. */
  public static WorkloadPriority of(int value) {
    return new WorkloadPriority(value, PriorityClassSource.NONE, "");
  }

  /** The priority of {@code wpc} ({@link PriorityClassSource#WORKLOAD_PRIORITY_CLASS}). */
  public static WorkloadPriority of(WorkloadPriorityClass wpc) {
    return new WorkloadPriority(wpc.value(), PriorityClassSource.WORKLOAD_PRIORITY_CLASS, wpc.name());
  }

  /** The priority of pod PriorityClass {@code pc} ({@link PriorityClassSource#POD_PRIORITY_CLASS}). */
  public static WorkloadPriority of(PriorityClass pc) {
    return new WorkloadPriority(pc.value(), PriorityClassSource.POD_PRIORITY_CLASS, pc.metadata().name());
  }

  /**
   * Kueue's {@code GetPriorityFromWorkloadPriorityClass}: the priority of the WorkloadPriorityClass {@code name},
   * found with {@code lookup}; empty if there is none of that name (Kueue's NotFound error: the workload is not
   * created).
   */
  public static Optional<WorkloadPriority> fromWorkloadPriorityClass(String name,
      Function<String, Optional<WorkloadPriorityClass>> lookup) {
    return lookup.apply(Objects.requireNonNull(name, "name")).map(WorkloadPriority::of);
  }

  /**
   * Kueue's {@code GetPriorityFromPriorityClass}: for an empty {@code name}, the global default class of {@code
   * classes} (several: the lowest value, as Kueue's race rule), else {@link #DEFAULT}; for a name, that class of
   * {@code classes}, or empty if there is none (Kueue's NotFound error).
   */
  public static Optional<WorkloadPriority> fromPriorityClass(String name, Iterable<PriorityClass> classes) {
    Objects.requireNonNull(name, "name");
    PriorityClass found = null;
    if (name.isEmpty()) {
      found = PriorityClass.globalDefaultOf(classes);
    } else {
      for (PriorityClass pc : classes) {
        if (pc.metadata().name().equals(name)) {
          found = pc;
        }
      }
    }
    if (found == null) {
      return name.isEmpty() ? Optional.of(DEFAULT) : Optional.empty();
    }
    return Optional.of(of(found));
  }
}
