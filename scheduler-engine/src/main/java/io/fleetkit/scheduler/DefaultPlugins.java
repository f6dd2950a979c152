package io.fleetkit.scheduler;

import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.framework.PluginFactory;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.scheduler.plugins.coscheduling.CoschedulingPlugin;
import io.fleetkit.scheduler.plugins.coscheduling.GangTopologyPlugin;
import io.fleetkit.scheduler.plugins.defaultbinder.DefaultBinderPlugin;
import io.fleetkit.scheduler.plugins.defaultpreemption.DefaultPreemptionPlugin;
import io.fleetkit.scheduler.plugins.dynamicresources.DynamicResourcesPlugin;
import io.fleetkit.scheduler.plugins.imagelocality.ImageLocalityPlugin;
import io.fleetkit.scheduler.plugins.interpodaffinity.InterPodAffinityPlugin;
import io.fleetkit.scheduler.plugins.nodeaffinity.NodeAffinityPlugin;
import io.fleetkit.scheduler.plugins.nodename.NodeNamePlugin;
import io.fleetkit.scheduler.plugins.nodeports.NodePortsPlugin;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesBalancedAllocationPlugin;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitPlugin;
import io.fleetkit.scheduler.plugins.nodeunschedulable.NodeUnschedulablePlugin;
import io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadPlugin;
import io.fleetkit.scheduler.plugins.prioritysort.PrioritySortPlugin;
import io.fleetkit.scheduler.plugins.schedulinggates.SchedulingGatesPlugin;
import io.fleetkit.scheduler.plugins.tainttoleration.TaintTolerationPlugin;
import java.util.List;

/**
 * The one place that lists FleetKit's default plugins and kube-scheduler's default profile
 * ({@code pkg/scheduler/apis/config/v1/default_plugins.go}: the MultiPoint order and the score weights
 * TaintToleration 3, NodeAffinity 2, NodeResourcesFit 1, PodTopologySpread 2, InterPodAffinity 2,
 * NodeResourcesBalancedAllocation 1, ImageLocality 1), with DynamicResources inserted before DefaultPreemption as
 * its {@code applyFeatureGates} does while DynamicResourceAllocation is enabled (the default since it went GA).
 *
 * <p>{@link #profile()} names kube's plugins in kube's order and leaves out, silently, those this build does not
 * register: the kube plugins FleetKit's scheduler does not implement, which are the storage plugins listed by name
 * (VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone; the storage-binding module provides them).
 * DefaultBinder, last, binds through the scheduler's {@code Binder}. A user profile that names an unknown plugin is
 * an error when the scheduler is built.
 */
public final class DefaultPlugins {
  /** kube's default MultiPoint plugins, in order, with their score weights (0: the plugin does not score). */
  private static final List<Entry> KUBE_DEFAULT_PROFILE = List.of(
      new Entry(SchedulingGatesPlugin.NAME, 0),
      new Entry(PrioritySortPlugin.NAME, 0),
      new Entry(NodeUnschedulablePlugin.NAME, 0),
      new Entry(NodeNamePlugin.NAME, 0),
      new Entry(TaintTolerationPlugin.NAME, 3),
      new Entry(NodeAffinityPlugin.NAME, 2),
      new Entry(NodePortsPlugin.NAME, 0),
      new Entry(NodeResourcesFitPlugin.NAME, 1),
      new Entry("VolumeRestrictions", 0),
      new Entry("NodeVolumeLimits", 0),
      new Entry("VolumeBinding", 0),
      new Entry("VolumeZone", 0),
      new Entry(PodTopologySpreadPlugin.NAME, 2),
      new Entry(InterPodAffinityPlugin.NAME, 2),
      new Entry(DynamicResourcesPlugin.NAME, 0),
      new Entry(DefaultPreemptionPlugin.NAME, 0),
      new Entry(NodeResourcesBalancedAllocationPlugin.NAME, 1),
      new Entry(ImageLocalityPlugin.NAME, 1),
      new Entry(DefaultBinderPlugin.NAME, 0));

  private DefaultPlugins() {}

  /** Registers every default plugin this build has, plus the optional Coscheduling plugin (not in the profile). */
  static void registerAll(PluginRegistry.Builder registry) {
    register(registry, SchedulingGatesPlugin.NAME, SchedulingGatesPlugin.FACTORY);
    register(registry, PrioritySortPlugin.NAME, PrioritySortPlugin::new);
    register(registry, NodeUnschedulablePlugin.NAME, NodeUnschedulablePlugin.FACTORY);
    register(registry, NodeNamePlugin.NAME, NodeNamePlugin.FACTORY);
    register(registry, TaintTolerationPlugin.NAME, TaintTolerationPlugin.FACTORY);
    register(registry, NodeAffinityPlugin.NAME, NodeAffinityPlugin.FACTORY);
    register(registry, NodePortsPlugin.NAME, NodePortsPlugin.FACTORY);
    register(registry, NodeResourcesFitPlugin.NAME, NodeResourcesFitPlugin.FACTORY);
    register(registry, PodTopologySpreadPlugin.NAME, PodTopologySpreadPlugin.FACTORY);
    register(registry, InterPodAffinityPlugin.NAME, InterPodAffinityPlugin.FACTORY);
    register(registry, DynamicResourcesPlugin.NAME, DynamicResourcesPlugin.FACTORY);
    register(registry, DefaultPreemptionPlugin.NAME, DefaultPreemptionPlugin.FACTORY);
    register(registry, NodeResourcesBalancedAllocationPlugin.NAME, NodeResourcesBalancedAllocationPlugin.FACTORY);
    register(registry, ImageLocalityPlugin.NAME, ImageLocalityPlugin.FACTORY);
    register(registry, DefaultBinderPlugin.NAME, DefaultBinderPlugin.FACTORY);
    // Out of kube's default profile, but registered so that profiles can enable it by name (scheduler-plugins'
    // Coscheduling replaces PrioritySort: see CoschedulingPlugin.enableIn).
    register(registry, CoschedulingPlugin.NAME, CoschedulingPlugin.FACTORY);
    register(registry, GangTopologyPlugin.NAME, GangTopologyPlugin.FACTORY);
  }

  private static void register(PluginRegistry.Builder registry, String name, PluginFactory factory) {
    registry.register(name, factory);
  }

  /** kube's default profile for {@value PodSpec#DEFAULT_SCHEDULER}. */
  public static SchedulerProfile profile() {
    return profile(PodSpec.DEFAULT_SCHEDULER);
  }

  /** kube's default plugins and weights under another scheduler name. */
  public static SchedulerProfile profile(String schedulerName) {
    PluginRegistry registry = PluginRegistry.defaults();
    SchedulerProfile.Builder b = SchedulerProfile.builder(schedulerName);
    for (Entry e : KUBE_DEFAULT_PROFILE) {
      if (registry.contains(e.name)) {
        b.plugin(e.name, e.weight);
      }
    }
    return b.build();
  }

  /** The names of kube's default plugins, in kube's order, whether or not this build implements them. */
  public static List<String> kubeDefaultNames() {
    return KUBE_DEFAULT_PROFILE.stream().map(e -> e.name).toList();
  }

  private record Entry(String name, int weight) {}
}
