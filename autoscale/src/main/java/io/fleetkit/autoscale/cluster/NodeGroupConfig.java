package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.autoscaling.NodePoolAutoscalingOptions;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The settings that apply to each pool's nodes: a pool's own ({@link NodePoolAutoscalingOptions}) where it gives one,
 * the autoscaler's otherwise. kubernetes/autoscaler's {@code DelegatingNodeGroupConfigProcessor}
 * ({@code processors/nodegroupconfig/node_group_config_processor.go}) over a node group's {@code GetOptions}, which
 * completes the group's settings with the defaults setting by setting. A node outside every pool, or in a pool
 * without settings of its own, gets the autoscaler's. Immutable: one per loop, from the loop's pools.
 */
final class NodeGroupConfig {
  private final AutoscalerOptions defaults;
  /** The pools that give settings of their own, by name. */
  private final Map<String, NodePoolAutoscalingOptions> overrides;

  private NodeGroupConfig(AutoscalerOptions defaults, Map<String, NodePoolAutoscalingOptions> overrides) {
    this.defaults = defaults;
    this.overrides = overrides;
  }

  /** The settings of {@code pools}' nodes; without any pool settings, no map is made. */
  static NodeGroupConfig of(AutoscalerOptions defaults, Iterable<NodePool> pools) {
    Map<String, NodePoolAutoscalingOptions> own = null;
    for (NodePool p : pools) {
      NodePoolAutoscalingOptions o = p.spec().autoscalingOptions();
      if (!o.isEmpty()) {
        if (own == null) {
          own = new HashMap<>();
        }
        own.put(p.metadata().name(), o);
      }
    }
    return new NodeGroupConfig(defaults, own == null ? Map.of() : own);
  }

  /** Whether every pool takes the autoscaler's settings. */
  boolean allDefaults() {
    return overrides.isEmpty();
  }

  /** The pools' own settings, by pool: equal for two loops that apply the same settings. */
  Map<String, NodePoolAutoscalingOptions> overrides() {
    return overrides;
  }

  private @Nullable NodePoolAutoscalingOptions own(@Nullable String pool) {
    return pool == null || overrides.isEmpty() ? null : overrides.get(pool);
  }

  /** {@code GetScaleDownUtilizationThreshold}, or its GPU counterpart for a GPU node. */
  double scaleDownUtilizationThreshold(@Nullable String pool, boolean gpuNode) {
    NodePoolAutoscalingOptions o = own(pool);
    Double v = o == null ? null : gpuNode ? o.scaleDownGpuUtilizationThreshold() : o.scaleDownUtilizationThreshold();
    if (v != null) {
      return v;
    }
    return gpuNode ? defaults.scaleDownGpuUtilizationThreshold() : defaults.scaleDownUtilizationThreshold();
  }

  /** {@code GetScaleDownUnneededTime}, or {@code GetScaleDownUnreadyTime} for a node that is not ready. */
  Duration scaleDownUnneededTime(@Nullable String pool, boolean ready) {
    NodePoolAutoscalingOptions o = own(pool);
    Duration v = o == null ? null : ready ? o.scaleDownUnneededTime() : o.scaleDownUnreadyTime();
    if (v != null) {
      return v;
    }
    return ready ? defaults.scaleDownUnneededTime() : defaults.scaleDownUnreadyTime();
  }

  /** {@code GetMaxNodeProvisionTime}. */
  Duration maxNodeProvisionTime(@Nullable String pool) {
    NodePoolAutoscalingOptions o = own(pool);
    Duration v = o == null ? null : o.maxNodeProvisionTime();
    return v != null ? v : defaults.maxNodeProvisionTime();
  }

  /** {@code GetMaxNodeStartupTime}. */
  Duration maxNodeStartupTime(@Nullable String pool) {
    NodePoolAutoscalingOptions o = own(pool);
    Duration v = o == null ? null : o.maxNodeStartupTime();
    return v != null ? v : defaults.maxNodeStartupTime();
  }

  /** The shortest unneeded (or unready) time any node needs: a node unneeded for less is due in no pool. */
  Duration shortestUnneededTime() {
    Duration shortest = min(defaults.scaleDownUnneededTime(), defaults.scaleDownUnreadyTime());
    for (NodePoolAutoscalingOptions o : overrides.values()) {
      if (o.scaleDownUnneededTime() != null) {
        shortest = min(shortest, o.scaleDownUnneededTime());
      }
      if (o.scaleDownUnreadyTime() != null) {
        shortest = min(shortest, o.scaleDownUnreadyTime());
      }
    }
    return shortest;
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
