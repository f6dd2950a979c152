package io.fleetkit.scheduler.plugins.noderesources;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Arguments of {@code NodeResourcesFit} (kube's {@code NodeResourcesFitArgs}).
 *
 * <p>As a profile args map: {@code {"ignoredResources": ["example.com/foo"], "ignoredResourceGroups": ["example.com"],
 * "scoringStrategy": {"type": "MostAllocated", "resources": [{"name": "cpu", "weight": 1}, ...],
 * "requestedToCapacityRatio": {"shape": [{"utilization": 0, "score": 10}, ...]}}}}. Every key is optional; absent
 * parts take kube's defaults (LeastAllocated over cpu and memory with weight 1; RequestedToCapacityRatio's shape
 * {@link ScoringStrategy#DEFAULT_SHAPE}).
 *
 * @param ignoredResources extended resources Filter does not check
 * @param ignoredResourceGroups extended-resource domains (the part before {@code /}) Filter does not check
 */
public record NodeResourcesFitArgs(Set<String> ignoredResources, Set<String> ignoredResourceGroups,
    ScoringStrategy scoringStrategy) {

  /** kube's defaults: nothing ignored, LeastAllocated over cpu and memory. */
  public static final NodeResourcesFitArgs DEFAULT = new NodeResourcesFitArgs(Set.of(), Set.of(), ScoringStrategy.DEFAULT);

  public NodeResourcesFitArgs {
    ignoredResources = Set.copyOf(ignoredResources);
    ignoredResourceGroups = Set.copyOf(ignoredResourceGroups);
    Objects.requireNonNull(scoringStrategy, "scoringStrategy");
    for (String g : ignoredResourceGroups) {
      if (g.isEmpty() || g.contains("/")) {
        throw new IllegalArgumentException(
            "NodeResourcesFit args: ignoredResourceGroups entry \"" + g + "\" must be a non-empty domain without '/'");
      }
    }
    for (String r : ignoredResources) {
      if (r.isEmpty()) {
        throw new IllegalArgumentException("NodeResourcesFit args: ignoredResources entries must not be empty");
      }
    }
  }

  public static NodeResourcesFitArgs of(ScoringStrategy strategy) {
    return new NodeResourcesFitArgs(Set.of(), Set.of(), strategy);
  }

  /**
   * Parses a profile's args map.
   *
   * @throws IllegalArgumentException naming the field, rule and value when an argument is malformed or invalid
   */
  public static NodeResourcesFitArgs fromMap(Map<String, Object> args) {
    String p = NodeResourcesFitPlugin.NAME;
    ArgsMaps.checkKeys(p, "", args, Set.of("ignoredResources", "ignoredResourceGroups", "scoringStrategy"));
    List<String> ignored = ArgsMaps.strings(p, "ignoredResources", args.get("ignoredResources"));
    List<String> groups = ArgsMaps.strings(p, "ignoredResourceGroups", args.get("ignoredResourceGroups"));
    Map<String, Object> s = ArgsMaps.map(p, "scoringStrategy", args.get("scoringStrategy"));
    ScoringStrategy strategy = s == null ? ScoringStrategy.DEFAULT : parseStrategy(p, s);
    return new NodeResourcesFitArgs(Set.copyOf(ignored), Set.copyOf(groups), strategy);
  }

  private static ScoringStrategy parseStrategy(String p, Map<String, Object> s) {
    ArgsMaps.checkKeys(p, "scoringStrategy.", s, Set.of("type", "resources", "requestedToCapacityRatio"));
    ScoringStrategy.Type type = ScoringStrategy.Type.LeastAllocated;
    Object t = s.get("type");
    if (t != null) {
      String name = ArgsMaps.string(p, "scoringStrategy.type", t);
      try {
        type = ScoringStrategy.Type.valueOf(name);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(p + " args: scoringStrategy.type \"" + name
            + "\" is not supported (supported: LeastAllocated, MostAllocated, RequestedToCapacityRatio)", e);
      }
    }
    List<ResourceSpec> resources = parseResources(p, "scoringStrategy.resources", s.get("resources"));
    Map<String, Object> rtcr = ArgsMaps.map(p, "scoringStrategy.requestedToCapacityRatio",
        s.get("requestedToCapacityRatio"));
    List<UtilizationShapePoint> shape = List.of();
    if (rtcr != null) {
      ArgsMaps.checkKeys(p, "scoringStrategy.requestedToCapacityRatio.", rtcr, Set.of("shape"));
      shape = parseShape(p, rtcr.get("shape"));
    } else if (type == ScoringStrategy.Type.RequestedToCapacityRatio) {
      shape = ScoringStrategy.DEFAULT_SHAPE;
    }
    if (type != ScoringStrategy.Type.RequestedToCapacityRatio && rtcr != null) {
      throw new IllegalArgumentException(p + " args: scoringStrategy.requestedToCapacityRatio is only allowed with "
          + "type RequestedToCapacityRatio, not " + type);
    }
    try {
      return new ScoringStrategy(type, resources, shape);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(p + " args: " + e.getMessage(), e);
    }
  }

  /** Resources with weights; absent or empty means kube's default (cpu and memory, weight 1). */
  static List<ResourceSpec> parseResources(String p, String path, @Nullable Object value) {
    if (value == null) {
      return ScoringStrategy.DEFAULT_RESOURCES;
    }
    List<?> l = ArgsMaps.list(p, path, value);
    if (l.isEmpty()) {
      return ScoringStrategy.DEFAULT_RESOURCES;
    }
    List<ResourceSpec> out = new ArrayList<>(l.size());
    for (int i = 0; i < l.size(); i++) {
      String at = path + "[" + i + "]";
      Map<String, Object> r = Objects.requireNonNull(ArgsMaps.map(p, at, l.get(i)), () -> p + " args: " + at + " is null");
      ArgsMaps.checkKeys(p, at + ".", r, Set.of("name", "weight"));
      String name = ArgsMaps.string(p, at + ".name", r.get("name"));
      long weight = r.containsKey("weight") ? ArgsMaps.integer(p, at + ".weight", r.get("weight")) : 1;
      if (weight < 1 || weight > ResourceSpec.MAX_WEIGHT) {
        throw new IllegalArgumentException(p + " args: " + at + ".weight " + weight + " must be in [1, "
            + ResourceSpec.MAX_WEIGHT + "]");
      }
      out.add(ResourceSpec.of(name, weight));
    }
    return out;
  }

  private static List<UtilizationShapePoint> parseShape(String p, @Nullable Object value) {
    String path = "scoringStrategy.requestedToCapacityRatio.shape";
    if (value == null) {
      throw new IllegalArgumentException(p + " args: " + path + " must have at least one point");
    }
    List<?> l = ArgsMaps.list(p, path, value);
    List<UtilizationShapePoint> out = new ArrayList<>(l.size());
    for (int i = 0; i < l.size(); i++) {
      String at = path + "[" + i + "]";
      Map<String, Object> pt = Objects.requireNonNull(ArgsMaps.map(p, at, l.get(i)), () -> p + " args: " + at + " is null");
      ArgsMaps.checkKeys(p, at + ".", pt, Set.of("utilization", "score"));
      long u = ArgsMaps.integer(p, at + ".utilization", pt.get("utilization"));
      long sc = ArgsMaps.integer(p, at + ".score", pt.get("score"));
      if (u < 0 || u > 100) {
        throw new IllegalArgumentException(p + " args: " + at + ".utilization " + u + " must be in [0, 100]");
      }
      if (sc < 0 || sc > UtilizationShapePoint.MAX_SCORE) {
        throw new IllegalArgumentException(
            p + " args: " + at + ".score " + sc + " must be in [0, " + UtilizationShapePoint.MAX_SCORE + "]");
      }
      out.add(UtilizationShapePoint.of((int) u, (int) sc));
    }
    return out;
  }
}
