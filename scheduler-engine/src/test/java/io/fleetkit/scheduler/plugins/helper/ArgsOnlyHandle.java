package io.fleetkit.scheduler.plugins.helper;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FrameworkHandle;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.framework.WaitingPods;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/** Test-only {@link FrameworkHandle} offering plugin arguments only; everything else is unsupported. */
public final class ArgsOnlyHandle implements FrameworkHandle {
  private final Map<String, Map<String, Object>> args;

  public ArgsOnlyHandle(Map<String, Map<String, Object>> args) {
    this.args = Map.copyOf(args);
  }

  public static ArgsOnlyHandle none() {
    return new ArgsOnlyHandle(Map.of());
  }

  @Override
  public Map<String, Object> pluginArgs(String pluginName) {
    return args.getOrDefault(pluginName, Map.of());
  }

  @Override
  public Clock clock() {
    throw new UnsupportedOperationException("clock");
  }

  @Override
  public Snapshot snapshot() {
    throw new UnsupportedOperationException("snapshot");
  }

  @Override
  public WaitingPods waitingPods() {
    throw new UnsupportedOperationException("waitingPods");
  }

  @Override
  public <T> List<T> list(Class<T> kind) {
    throw new UnsupportedOperationException("list");
  }

  @Override
  public Status runFilterPlugins(CycleState state, PodInfo pod, NodeInfo node) {
    throw new UnsupportedOperationException("runFilterPlugins");
  }

  @Override
  public Status runPreFilterExtensionAddPod(CycleState state, PodInfo podToSchedule, PodInfo other, NodeInfo node) {
    throw new UnsupportedOperationException("runPreFilterExtensionAddPod");
  }

  @Override
  public Status runPreFilterExtensionRemovePod(CycleState state, PodInfo podToSchedule, PodInfo other,
      NodeInfo node) {
    throw new UnsupportedOperationException("runPreFilterExtensionRemovePod");
  }
}
