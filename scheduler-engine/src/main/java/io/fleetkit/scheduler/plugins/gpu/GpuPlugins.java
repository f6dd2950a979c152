package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.scheduler.Binder;
import io.fleetkit.api.scheduler.SchedulerProfile;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitPlugin;
import java.util.List;
import java.util.Map;

/**
 * The GPU plugins of one scheduler, sharing one {@link GpuAssignments}. Typical use:
 *
 * <pre>{@code
 * GpuPlugins gpu = GpuPlugins.create(false);
 * Scheduler s = new SchedulerBuilder().registry(gpu.registry(PluginRegistry.defaults()))
 *     .profile(gpu.profile()).binder(gpu.binder(new StoreBinder(store))).build();
 * }</pre>
 *
 * <p>The profile is kube's default plus {@link GpuFilterPlugin}, {@link GpuReservePlugin} and
 * {@link GpuTopologyPlugin} (weight 1); NodeResourcesFit ignores the GPU resources, which these plugins account for
 * per device. Every GPU plugin Skips pods without GPU requests.
 */
public final class GpuPlugins {
  /** The topology score weight in {@link #profile()}. */
  public static final int TOPOLOGY_WEIGHT = 1;

  private final GpuAssignments assignments = new GpuAssignments();
  private final boolean requireOneGroup;

  private GpuPlugins(boolean requireOneGroup) {
    this.requireOneGroup = requireOneGroup;
  }

  /**
   * @param requireOneGroup whether a multi-GPU pod fits only where one interconnect group (or NUMA node) holds all
   *     its devices; when false that is only preferred (scored)
   */
  public static GpuPlugins create(boolean requireOneGroup) {
    return new GpuPlugins(requireOneGroup);
  }

  public GpuAssignments assignments() {
    return assignments;
  }

  /** {@code base} plus the three GPU plugins. */
  public PluginRegistry registry(PluginRegistry base) {
    return base.toBuilder()
        .register(GpuFilterPlugin.NAME, h -> new GpuFilterPlugin(assignments, requireOneGroup))
        .register(GpuReservePlugin.NAME, h -> new GpuReservePlugin(assignments, h::snapshot, requireOneGroup))
        .register(GpuTopologyPlugin.NAME, h -> new GpuTopologyPlugin(assignments))
        .build();
  }

  /** kube's default profile plus the GPU plugins. */
  public SchedulerProfile profile() {
    return DefaultPlugins.profile().toBuilder()
        .plugin(GpuFilterPlugin.NAME, 0)
        .plugin(GpuReservePlugin.NAME, 0)
        .plugin(GpuTopologyPlugin.NAME, TOPOLOGY_WEIGHT)
        .pluginArgs(NodeResourcesFitPlugin.NAME,
            Map.of("ignoredResources", List.of(GpuRequests.WHOLE, GpuRequests.MILLI)))
        .build();
  }

  /** {@code delegate} wrapped to record the reserved device ids on the pods it binds. */
  public Binder binder(Binder delegate) {
    return new GpuBinder(delegate, assignments);
  }
}
