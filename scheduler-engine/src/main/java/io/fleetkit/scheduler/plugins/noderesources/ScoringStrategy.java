package io.fleetkit.scheduler.plugins.noderesources;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * How {@code NodeResourcesFit} scores nodes (kube's {@code config.ScoringStrategy}).
 *
 * @param type the scoring function
 * @param resources the resources scored and their weights; not empty, names unique
 * @param shape RequestedToCapacityRatio's shape, utilizations strictly increasing; empty for the other types
 */
public record ScoringStrategy(Type type, List<ResourceSpec> resources, List<UtilizationShapePoint> shape) {

  /** The scoring functions. */
  public enum Type {
    /** Favours nodes with more free resources: {@code (allocatable - requested) * 100 / allocatable}. */
    LeastAllocated,
    /** Favours nodes with fewer free resources (bin packing): {@code requested * 100 / allocatable}. */
    MostAllocated,
    /** A piecewise-linear function of utilization given by {@link ScoringStrategy#shape()}. */
    RequestedToCapacityRatio
  }

  /** kube's default resources: cpu and memory, weight 1 each. */
  public static final List<ResourceSpec> DEFAULT_RESOURCES =
      List.of(ResourceSpec.of("cpu", 1), ResourceSpec.of("memory", 1));

  /** The shape kube defaults RequestedToCapacityRatio to: least-requested nodes first. */
  public static final List<UtilizationShapePoint> DEFAULT_SHAPE =
      List.of(UtilizationShapePoint.of(0, 10), UtilizationShapePoint.of(100, 0));

  /** kube's default: LeastAllocated over cpu and memory. */
  public static final ScoringStrategy DEFAULT = new ScoringStrategy(Type.LeastAllocated, DEFAULT_RESOURCES, List.of());

  public ScoringStrategy {
    Objects.requireNonNull(type, "type");
    resources = List.copyOf(resources);
    shape = List.copyOf(shape);
    if (resources.isEmpty()) {
      throw new IllegalArgumentException("scoringStrategy.resources must not be empty");
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < resources.size(); i++) {
      if (!seen.add(resources.get(i).name())) {
        throw new IllegalArgumentException("scoringStrategy.resources[" + i + "].name \"" + resources.get(i).name()
            + "\" must be unique (listed twice)");
      }
    }
    if (type == Type.RequestedToCapacityRatio) {
      if (shape.isEmpty()) {
        throw new IllegalArgumentException(
            "scoringStrategy.requestedToCapacityRatio.shape must have at least one point");
      }
      for (int i = 1; i < shape.size(); i++) {
        if (shape.get(i).utilization() <= shape.get(i - 1).utilization()) {
          throw new IllegalArgumentException("scoringStrategy.requestedToCapacityRatio.shape[" + i + "].utilization "
              + shape.get(i).utilization() + " must be greater than the previous point's "
              + shape.get(i - 1).utilization() + " (utilizations strictly increasing)");
        }
      }
    } else if (!shape.isEmpty()) {
      throw new IllegalArgumentException(
          "scoringStrategy.requestedToCapacityRatio is only allowed with type RequestedToCapacityRatio, not " + type);
    }
  }

  public static ScoringStrategy leastAllocated(List<ResourceSpec> resources) {
    return new ScoringStrategy(Type.LeastAllocated, resources, List.of());
  }

  public static ScoringStrategy mostAllocated(List<ResourceSpec> resources) {
    return new ScoringStrategy(Type.MostAllocated, resources, List.of());
  }

  public static ScoringStrategy requestedToCapacityRatio(List<ResourceSpec> resources,
      List<UtilizationShapePoint> shape) {
    return new ScoringStrategy(Type.RequestedToCapacityRatio, resources, shape);
  }
}
