package io.fleetkit.scheduler.plugins.schedulinggates;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.EnqueueExtensions;
import io.fleetkit.api.framework.PluginFactory;
import io.fleetkit.api.framework.PreEnqueuePlugin;
import io.fleetkit.api.framework.Status;
import java.util.List;
import java.util.Set;

/**
 * Holds a pod with scheduling gates out of activeQ, as kube-scheduler's {@code SchedulingGates}
 * ({@code pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go}): PreEnqueue answers
 * UNSCHEDULABLE_AND_UNRESOLVABLE with {@code waiting for scheduling gates: [a b]} while {@code spec.schedulingGates}
 * names any gate, so the pod waits among the gated pods without a scheduling attempt. Whoever owns a gate removes it
 * by updating the pod (the store allows only removals); the engine runs PreEnqueue again on every update of a parked
 * pod, which is upstream's {@code UpdatePodSchedulingGatesEliminated} event with its always-Queue hint. No cluster
 * event concerns the plugin, so it registers none.
 *
 * <p>Stateless and thread-safe; a pod without gates costs one list check.
 */
public final class SchedulingGatesPlugin implements PreEnqueuePlugin, EnqueueExtensions {
  /** The name this plugin is registered under. */
  public static final String NAME = "SchedulingGates";

  /** The single instance: the plugin has no state. */
  public static final SchedulingGatesPlugin INSTANCE = new SchedulingGatesPlugin();
  /** Creates the plugin for a profile. */
  public static final PluginFactory FACTORY = handle -> INSTANCE;

  private SchedulingGatesPlugin() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status preEnqueue(Pod pod) {
    List<String> gates = pod.spec().schedulingGates();
    if (gates.isEmpty()) {
      return Status.success();
    }
    // Go's %v of a []string: [a b]
    return new Status(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        List.of("waiting for scheduling gates: [" + String.join(" ", gates) + "]"), NAME);
  }

  /** None: only an update of the gated pod itself can lift a gate, and that always runs PreEnqueue again. */
  @Override
  public Set<ClusterEvent> eventsToRegister() {
    return Set.of();
  }

  @Override
  public String toString() {
    return NAME;
  }
}
