package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.simulation.ScenarioAutoscaler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A Scenario's {@code spec.clusterAutoscaler} ({@link ScenarioAutoscaler}), read from and written to an untyped map:
 * upstream cluster-autoscaler's flags in camelCase, durations as Go durations, {@code coresTotal} as whole cores and
 * {@code memoryTotal} as quantities, each a {@code {min, max}} map, {@code gpuTotal} as a list of
 * {@code {type, min, max}} maps (a {@code min} or {@code max} left out is 0: no limit on that side). A field left out
 * stays unset (upstream's default); the rules between fields (thresholds, min against max, expanders, GPU types) are
 * {@code Scenario}'s.
 */
final class ScenarioAutoscalerYaml {
  static final String PATH = "spec.clusterAutoscaler";
  private static final Set<String> FIELDS = Set.of("expander", "scaleDownUtilizationThreshold",
      "scaleDownGpuUtilizationThreshold", "scaleDownUnneededTime", "scaleDownDelayAfterAdd",
      "scaleDownDelayAfterDelete", "scaleDownDelayAfterFailure", "maxNodeProvisionTime", "balanceSimilarNodeGroups",
      "balancingIgnoreLabels", "coresTotal", "memoryTotal", "maxNodesTotal", "gpuTotal", "nodeDeleteDelayAfterTaint",
      "cordonNodeBeforeTerminating");
  private static final Set<String> RANGE_FIELDS = Set.of("min", "max");
  private static final Set<String> GPU_FIELDS = Set.of("type", "min", "max");

  private ScenarioAutoscalerYaml() {}

  /** The block {@code m}; unknown fields and values of the wrong type are reported, naming their path. */
  static ScenarioAutoscaler read(Map<String, Object> m, DocumentContext ctx) {
    Untyped.known(m, FIELDS, PATH, ctx);
    ScenarioAutoscaler.Builder b = ScenarioAutoscaler.builder();
    if (m.containsKey("expander")) {
      b.expander(Untyped.string(m, "expander", "", PATH + ".expander", ctx));
    }
    b.scaleDownUtilizationThreshold(Untyped.number(m, "scaleDownUtilizationThreshold",
        PATH + ".scaleDownUtilizationThreshold", ctx));
    b.scaleDownGpuUtilizationThreshold(Untyped.number(m, "scaleDownGpuUtilizationThreshold",
        PATH + ".scaleDownGpuUtilizationThreshold", ctx));
    b.scaleDownUnneededTime(duration(m, "scaleDownUnneededTime", ctx));
    b.scaleDownDelayAfterAdd(duration(m, "scaleDownDelayAfterAdd", ctx));
    b.scaleDownDelayAfterDelete(duration(m, "scaleDownDelayAfterDelete", ctx));
    b.scaleDownDelayAfterFailure(duration(m, "scaleDownDelayAfterFailure", ctx));
    b.maxNodeProvisionTime(duration(m, "maxNodeProvisionTime", ctx));
    b.balanceSimilarNodeGroups(Untyped.bool(m, "balanceSimilarNodeGroups", PATH + ".balanceSimilarNodeGroups", ctx));
    b.balancingIgnoreLabels(Untyped.stringList(m, "balancingIgnoreLabels", PATH + ".balancingIgnoreLabels", ctx));
    Map<String, Object> cores = Untyped.map(m, "coresTotal", PATH + ".coresTotal", ctx);
    Untyped.known(cores, RANGE_FIELDS, PATH + ".coresTotal", ctx);
    b.coresTotal(Untyped.integer(cores, "min", PATH + ".coresTotal.min", ctx),
        Untyped.integer(cores, "max", PATH + ".coresTotal.max", ctx));
    Map<String, Object> memory = Untyped.map(m, "memoryTotal", PATH + ".memoryTotal", ctx);
    Untyped.known(memory, RANGE_FIELDS, PATH + ".memoryTotal", ctx);
    b.memoryTotal(quantity(memory, "min", ctx), quantity(memory, "max", ctx));
    b.maxNodesTotal(Untyped.int32(m, "maxNodesTotal", PATH + ".maxNodesTotal", ctx));
    b.gpuTotal(Untyped.entries(m, "gpuTotal", PATH + ".gpuTotal", ctx, ScenarioAutoscalerYaml::gpuTotal));
    b.nodeDeleteDelayAfterTaint(duration(m, "nodeDeleteDelayAfterTaint", ctx));
    b.cordonNodeBeforeTerminating(Untyped.bool(m, "cordonNodeBeforeTerminating",
        PATH + ".cordonNodeBeforeTerminating", ctx));
    return b.build();
  }

  /** One {@code gpuTotal} entry at {@code path}; a {@code type} left out is empty, which {@code Scenario} refuses. */
  private static ScenarioAutoscaler.GpuTotal gpuTotal(Map<String, Object> m, String path, DocumentContext ctx) {
    Untyped.known(m, GPU_FIELDS, path, ctx);
    Long min = Untyped.integer(m, "min", path + ".min", ctx);
    Long max = Untyped.integer(m, "max", path + ".max", ctx);
    return new ScenarioAutoscaler.GpuTotal(Untyped.string(m, "type", "", path + ".type", ctx),
        min == null ? 0 : min, max == null ? 0 : max);
  }

  /** The block as {@link #read} reads it back: only the fields that are set. */
  static Map<String, Object> write(ScenarioAutoscaler a) {
    Map<String, Object> m = new LinkedHashMap<>();
    Untyped.put(m, "expander", a.expander());
    Untyped.put(m, "scaleDownUtilizationThreshold", a.scaleDownUtilizationThreshold());
    Untyped.put(m, "scaleDownGpuUtilizationThreshold", a.scaleDownGpuUtilizationThreshold());
    NodePoolConverter.putDuration(m, "scaleDownUnneededTime", a.scaleDownUnneededTime());
    NodePoolConverter.putDuration(m, "scaleDownDelayAfterAdd", a.scaleDownDelayAfterAdd());
    NodePoolConverter.putDuration(m, "scaleDownDelayAfterDelete", a.scaleDownDelayAfterDelete());
    NodePoolConverter.putDuration(m, "scaleDownDelayAfterFailure", a.scaleDownDelayAfterFailure());
    NodePoolConverter.putDuration(m, "maxNodeProvisionTime", a.maxNodeProvisionTime());
    Untyped.put(m, "balanceSimilarNodeGroups", a.balanceSimilarNodeGroups());
    Untyped.put(m, "balancingIgnoreLabels", a.balancingIgnoreLabels());
    Map<String, Object> cores = new LinkedHashMap<>();
    Untyped.put(cores, "min", a.minCoresTotal());
    Untyped.put(cores, "max", a.maxCoresTotal());
    Untyped.put(m, "coresTotal", cores);
    Map<String, Object> memory = new LinkedHashMap<>();
    Quantity minMemory = a.minMemoryTotal();
    Quantity maxMemory = a.maxMemoryTotal();
    Untyped.put(memory, "min", minMemory == null ? null : minMemory.toString());
    Untyped.put(memory, "max", maxMemory == null ? null : maxMemory.toString());
    Untyped.put(m, "memoryTotal", memory);
    Untyped.put(m, "maxNodesTotal", a.maxNodesTotal());
    List<Object> gpus = new ArrayList<>();
    for (ScenarioAutoscaler.GpuTotal g : a.gpuTotal()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("type", g.type());
      e.put("min", g.min());
      e.put("max", g.max());
      gpus.add(e);
    }
    Untyped.put(m, "gpuTotal", gpus);
    NodePoolConverter.putDuration(m, "nodeDeleteDelayAfterTaint", a.nodeDeleteDelayAfterTaint());
    Untyped.put(m, "cordonNodeBeforeTerminating", a.cordonNodeBeforeTerminating());
    return m;
  }

  private static @Nullable Duration duration(Map<String, Object> m, String key, DocumentContext ctx) {
    return NodePoolConverter.optionalDuration(m, key, PATH, ctx);
  }

  private static @Nullable Quantity quantity(Map<String, Object> m, String key, DocumentContext ctx) {
    return m.containsKey(key) ? Values.quantity(Untyped.string(m, key, "", PATH + ".memoryTotal." + key, ctx),
        PATH + ".memoryTotal." + key, ctx) : null;
  }
}
