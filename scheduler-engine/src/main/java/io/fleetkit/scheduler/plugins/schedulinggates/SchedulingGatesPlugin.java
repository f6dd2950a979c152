package io.fleetkit.scheduler.plugins.schedulinggates;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.EnqueueExtensions;
import io.fleetkit.api.framework.PluginFactory;
import io.fleetkit.api.framework.PreEnqueuePlugin;
import io.fleetkit.api.framework.Status;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Holds a pod with scheduling gates out of activeQ, as kube-scheduler's {@code SchedulingGates}
 * ({@code pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go}): PreEnqueue answers
 * UNSCHEDULABLE_AND_UNRESOLVABLE with {@code waiting for scheduling gates: [a b]} while {@code spec.schedulingGates}
 * names any gate, so the pod waits among the gated pods without a scheduling attempt. Whoever owns a gate removes it
 * by updating the pod (the store allows only removals). The plugin registers upstream's one event,
 * {@code TargetPod/UpdatePodSchedulingGatesEliminated}
 * ({@link ClusterEvent#TARGET_POD_UPDATE_SCHEDULING_GATES_ELIMINATED}), with its always-Queue hint ({@code isSchedulableAfterUpdateTargetPodSchedulingGatesEliminated}): once the last
 * gate of a gated pod goes, the queue runs PreEnqueue again; removing one gate of several does not wake it.
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

  /** Only the gated pod losing its last gate can lift this plugin's verdict. */
  @Override
  public Set<ClusterEvent> eventsToRegister() {
    return Set.of(ClusterEvent.TARGET_POD_UPDATE_SCHEDULING_GATES_ELIMINATED);
  }

  /** Upstream's {@code isSchedulableAfterUpdateTargetPodSchedulingGatesEliminated}: always yes. */
  @Override
  public boolean isSchedulableAfter(Pod pod, ClusterEvent event, @Nullable Object oldObject,
      @Nullable Object newObject) {
    return true;
  }

  @Override
  public String toString() {
    return NAME;
  }
}
