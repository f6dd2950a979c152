package io.fleetkit.simulator;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.simulation.ScenarioAutoscaler;
import io.fleetkit.autoscale.cluster.AutoscalerOptions;
import io.fleetkit.autoscale.cluster.Expander;
import io.fleetkit.autoscale.cluster.Expanders;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * The cluster autoscaler a scenario asks for ({@link ScenarioAutoscaler}): upstream's defaults
 * ({@link AutoscalerOptions#defaults()}, least-waste) with each option the scenario sets in its place.
 *
 * @param options the options the autoscaler runs with
 * @param expander the expander, or chain of expanders, it picks scale-up options with
 * @param expanderNames the expander as the scenario names it ({@code least-waste} when it names none)
 */
record AutoscalerChoice(AutoscalerOptions options, Expander expander, String expanderNames) {
  /** Upstream's defaults: nothing set. */
  static final AutoscalerChoice DEFAULT = of(null);

  /**
   * The options of {@code a} ({@code null}: none set) over upstream's defaults.
   *
   * @throws IllegalArgumentException naming {@code spec.clusterAutoscaler} when the autoscaler refuses a value (a
   *     total's minimum above upstream's default maximum, a GPU type named {@code cpu} or {@code memory}, an expander
   *     it does not know)
   */
  static AutoscalerChoice of(@Nullable ScenarioAutoscaler a) {
    if (a == null) {
      return new AutoscalerChoice(AutoscalerOptions.defaults(), Expanders.leastWaste(),
          ScenarioAutoscaler.DEFAULT_EXPANDER);
    }
    AutoscalerOptions o = AutoscalerOptions.defaults();
    try {
      o = set(o, a.scaleDownUtilizationThreshold(), AutoscalerOptions::withScaleDownUtilizationThreshold);
      o = set(o, a.scaleDownGpuUtilizationThreshold(), AutoscalerOptions::withScaleDownGpuUtilizationThreshold);
      o = set(o, a.scaleDownUnneededTime(), AutoscalerOptions::withScaleDownUnneededTime);
      o = set(o, a.scaleDownDelayAfterAdd(), AutoscalerOptions::withScaleDownDelayAfterAdd);
      o = set(o, a.scaleDownDelayAfterDelete(), AutoscalerOptions::withScaleDownDelayAfterDelete);
      o = set(o, a.scaleDownDelayAfterFailure(), AutoscalerOptions::withScaleDownDelayAfterFailure);
      o = set(o, a.maxNodeProvisionTime(), AutoscalerOptions::withMaxNodeProvisionTime);
      o = set(o, a.balanceSimilarNodeGroups(), AutoscalerOptions::withBalanceSimilarNodeGroups);
      if (!a.balancingIgnoreLabels().isEmpty()) {
        o = o.withBalancingIgnoreLabels(a.balancingIgnoreLabels());
      }
      o = set(o, a.maxNodesTotal(), AutoscalerOptions::withMaxNodesTotal);
      // one side of a total left out keeps upstream's default for that side
      Long minCores = a.minCoresTotal();
      Long maxCores = a.maxCoresTotal();
      o = o.withCoresTotal(minCores == null ? o.minCoresTotal() : minCores,
          maxCores == null ? o.maxCoresTotal() : maxCores);
      Quantity minMemory = a.minMemoryTotal();
      Quantity maxMemory = a.maxMemoryTotal();
      o = o.withMemoryTotal(minMemory == null ? o.minMemoryTotal() : minMemory.value(),
          maxMemory == null ? o.maxMemoryTotal() : maxMemory.value());
      o = o.withGpuTotal(a.gpuTotal().stream()
          .map(g -> new AutoscalerOptions.GpuLimit(g.type(), g.min(), g.max())).toList());
      o = set(o, a.nodeDeleteDelayAfterTaint(), AutoscalerOptions::withNodeDeleteDelayAfterTaint);
      o = set(o, a.cordonNodeBeforeTerminating(), AutoscalerOptions::withCordonNodeBeforeTerminating);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("spec.clusterAutoscaler: " + e.getMessage(), e);
    }
    String names = String.join(",", a.expanderChain());
    Expander expander;
    try {
      expander = Expanders.named(names);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("spec.clusterAutoscaler.expander: " + e.getMessage(), e);
    }
    return new AutoscalerChoice(o, expander, names);
  }

  /** {@code with(o, v)} when {@code v} is set, else {@code o}. */
  private static <T> AutoscalerOptions set(AutoscalerOptions o, @Nullable T v,
      BiFunction<AutoscalerOptions, T, AutoscalerOptions> with) {
    return v == null ? o : with.apply(o, v);
  }
}
