package io.fleetkit.scheduler.plugins.defaultpreemption;

import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.FrameworkHandle;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.framework.WaitingPods;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

/**
 * A framework handle for tests: runs the given Filter plugins in order (first rejection wins) and the PreFilter
 * extensions, wrapping their failures as kube's framework does ({@code running RemovePod on PreFilter plugin "x": ...}).
 */
final class TestHandle implements FrameworkHandle {
  /** Now, for pods without a start time: later than every fixture time. */
  static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private final Snapshot snapshot;
  private final List<FilterPlugin> filters;
  private final List<PreFilterPlugin> preFilters;
  private final List<PodDisruptionBudget> pdbs;
  private final Map<String, Object> args;

  TestHandle(Snapshot snapshot, List<FilterPlugin> filters, List<PreFilterPlugin> preFilters,
      List<PodDisruptionBudget> pdbs, Map<String, Object> args) {
    this.snapshot = snapshot;
    this.filters = filters;
    this.preFilters = preFilters;
    this.pdbs = pdbs;
    this.args = args;
  }

  TestHandle(Snapshot snapshot, List<FilterPlugin> filters, List<PodDisruptionBudget> pdbs) {
    this(snapshot, filters, List.of(), pdbs, Map.of());
  }

  @Override
  public Clock clock() {
    return Clock.fixed(NOW, ZoneOffset.UTC);
  }

  @Override
  public Snapshot snapshot() {
    return snapshot;
  }

  @Override
  public WaitingPods waitingPods() {
    return WaitingPods.NONE;
  }

  @Override
  public <T> List<T> list(Class<T> kind) {
    return kind == PodDisruptionBudget.class ? pdbs.stream().map(kind::cast).toList() : List.of();
  }

  @Override
  public Status runFilterPlugins(CycleState state, PodInfo pod, NodeInfo node) {
    for (FilterPlugin f : filters) {
      Status s = f.filter(state, pod, node);
      if (!s.isSuccess()) {
        return s.withPlugin(f.name());
      }
    }
    return Status.success();
  }

  @Override
  public Status runPreFilterExtensionAddPod(CycleState state, PodInfo podToSchedule, PodInfo other, NodeInfo node) {
    for (PreFilterPlugin p : preFilters) {
      PreFilterPlugin.PreFilterExtensions ext = p.preFilterExtensions();
      if (ext != null) {
        Status s = ext.addPod(state, podToSchedule, other, node);
        if (!s.isSuccess()) {
          return Status.error("running AddPod on PreFilter plugin \"" + p.name() + "\": " + s.message());
        }
      }
    }
    return Status.success();
  }

  @Override
  public Status runPreFilterExtensionRemovePod(CycleState state, PodInfo podToSchedule, PodInfo other,
      NodeInfo node) {
    for (PreFilterPlugin p : preFilters) {
      PreFilterPlugin.PreFilterExtensions ext = p.preFilterExtensions();
      if (ext != null) {
        Status s = ext.removePod(state, podToSchedule, other, node);
        if (!s.isSuccess()) {
          return Status.error("running RemovePod on PreFilter plugin \"" + p.name() + "\": " + s.message());
        }
      }
    }
    return Status.success();
  }

  @Override
  public Map<String, Object> pluginArgs(String pluginName) {
    return DefaultPreemptionPlugin.NAME.equals(pluginName) ? args : Map.of();
  }
}
