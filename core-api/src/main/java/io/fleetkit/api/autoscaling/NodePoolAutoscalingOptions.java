package io.fleetkit.api.autoscaling;

import io.fleetkit.api.Violations;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * A pool's own cluster-autoscaler settings, each overriding the autoscaler's flag for this pool's nodes only; an unset
 * ({@code null}) setting takes the autoscaler's. Upstream's per node group {@code NodeGroupAutoscalingOptions}, which
 * a cloud provider reads from the group's tags or annotations (the Cluster API provider from
 * {@code cluster.x-k8s.io/autoscaling-options-<key>} annotations, keys {@code scaledownutilizationthreshold},
 * {@code scaledowngpuutilizationthreshold}, {@code scaledownunneededtime}, {@code scaledownunreadytime},
 * {@code maxnodeprovisiontime}, {@code maxnodestartuptime}) and {@code NodeGroupConfigProcessor} hands to the
 * autoscaler's decisions.
 *
 * @param scaleDownUtilizationThreshold a node of the pool is a scale-down candidate at or under this utilization
 *     (0..1)
 * @param scaleDownGpuUtilizationThreshold the same for the pool's GPU nodes, judged by GPU utilization (0..1)
 * @param scaleDownUnneededTime how long a node of the pool must be unneeded before it is removed
 * @param scaleDownUnreadyTime the same for an unready node of the pool
 * @param maxNodeProvisionTime how long a node of the pool may take to become ready before its scale-up times out and
 *     the pool is backed off (for pools whose nodes start slowly, such as GPU nodes with drivers to install)
 * @param maxNodeStartupTime how long an unready node of the pool counts as still starting, not as unready, in the
 *     cluster's and the pool's health
 */
public record NodePoolAutoscalingOptions(@Nullable Double scaleDownUtilizationThreshold,
    @Nullable Double scaleDownGpuUtilizationThreshold, @Nullable Duration scaleDownUnneededTime,
    @Nullable Duration scaleDownUnreadyTime, @Nullable Duration maxNodeProvisionTime,
    @Nullable Duration maxNodeStartupTime) {

  /** No setting of its own: every one is the autoscaler's. */
  public static final NodePoolAutoscalingOptions NONE = new NodePoolAutoscalingOptions(null, null, null, null, null,
      null);

  /** Whether no setting is given. */
  public boolean isEmpty() {
    return equals(NONE);
  }

  /** Adds a violation under {@code path} for every setting out of its range. */
  void check(String path, Violations v) {
    fraction(path + ".scaleDownUtilizationThreshold", scaleDownUtilizationThreshold, v);
    fraction(path + ".scaleDownGpuUtilizationThreshold", scaleDownGpuUtilizationThreshold, v);
    nonNegative(path + ".scaleDownUnneededTime", scaleDownUnneededTime, v);
    nonNegative(path + ".scaleDownUnreadyTime", scaleDownUnreadyTime, v);
    nonNegative(path + ".maxNodeProvisionTime", maxNodeProvisionTime, v);
    nonNegative(path + ".maxNodeStartupTime", maxNodeStartupTime, v);
  }

  private static void fraction(String field, @Nullable Double value, Violations v) {
    if (value != null && !(value >= 0 && value <= 1)) {
      v.add(field, "must be between 0 and 1", value);
    }
  }

  private static void nonNegative(String field, @Nullable Duration value, Violations v) {
    if (value != null && value.isNegative()) {
      v.add(field, Violations.NON_NEGATIVE, value);
    }
  }

  /** A builder with no setting given. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds the options setting by setting. */
  public static final class Builder {
    private @Nullable Double scaleDownUtilizationThreshold;
    private @Nullable Double scaleDownGpuUtilizationThreshold;
    private @Nullable Duration scaleDownUnneededTime;
    private @Nullable Duration scaleDownUnreadyTime;
    private @Nullable Duration maxNodeProvisionTime;
    private @Nullable Duration maxNodeStartupTime;

    private Builder() {}

    public Builder scaleDownUtilizationThreshold(double v) { scaleDownUtilizationThreshold = v; return this; }
    public Builder scaleDownGpuUtilizationThreshold(double v) { scaleDownGpuUtilizationThreshold = v; return this; }
    public Builder scaleDownUnneededTime(Duration v) { scaleDownUnneededTime = v; return this; }
    public Builder scaleDownUnreadyTime(Duration v) { scaleDownUnreadyTime = v; return this; }
    public Builder maxNodeProvisionTime(Duration v) { maxNodeProvisionTime = v; return this; }
    public Builder maxNodeStartupTime(Duration v) { maxNodeStartupTime = v; return this; }

    public NodePoolAutoscalingOptions build() {
      return new NodePoolAutoscalingOptions(scaleDownUtilizationThreshold, scaleDownGpuUtilizationThreshold,
          scaleDownUnneededTime, scaleDownUnreadyTime, maxNodeProvisionTime, maxNodeStartupTime);
    }
  }
}
