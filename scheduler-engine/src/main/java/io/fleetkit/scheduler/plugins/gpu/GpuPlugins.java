package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.framework.Binder;
import io.fleetkit.api.framework.ExtensionPoint;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitPlugin;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

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

  /** The policy score weight in {@link #profile()}: above the sum of kube's default score weights (12). */
  public static final int POLICY_WEIGHT = 16;

  private final GpuAssignments assignments = new GpuAssignments();
  private final boolean requireOneGroup;
  private final @Nullable GpuPolicy policy;
  private final @Nullable GpuWorkload workload;
  private final long seed;

  private GpuPlugins(boolean requireOneGroup, @Nullable GpuPolicy policy, @Nullable GpuWorkload workload,
      long seed) {
    this.requireOneGroup = requireOneGroup;
    this.policy = policy;
    this.workload = workload;
    this.seed = seed;
  }

  /** A builder: topology requirement, placement policy (one of {@link GpuPolicy}), FGD's workload, seed. */
  public static Builder builder() {
    return new Builder();
  }

  /** Options of {@link GpuPlugins}. */
  public static final class Builder {
    private boolean requireOneGroup;
    private @Nullable GpuPolicy policy;
    private @Nullable GpuWorkload workload;
    private long seed;

    private Builder() {}

    /** Whether a multi-GPU pod fits only where one interconnect group (or NUMA node) holds all its devices. */
    public Builder requireOneGroup(boolean v) {
      requireOneGroup = v;
      return this;
    }

    /** The placement policy scored by {@link #profile()} and {@link #policyOnlyProfile()}. */
    public Builder policy(GpuPolicy v) {
      policy = Objects.requireNonNull(v, "policy");
      return this;
    }

    /**
     * FGD's target workload; required by {@link GpuPolicy#FGD}, {@link GpuPolicy#FGD_BALANCED},
     * {@link GpuPolicy#GAP_FILL}, {@link GpuPolicy#MODEL_GAP_FILL} and {@link GpuPolicy#ADAPTIVE_GAP_FILL}.
     */
    public Builder workload(GpuWorkload v) {
      workload = Objects.requireNonNull(v, "workload");
      return this;
    }

    /** The seed of {@link GpuPolicy#RANDOM} and of the node order FGD, FgdBalanced and GapFill break ties by. */
    public Builder seed(long v) {
      seed = v;
      return this;
    }

    /**
     * @throws IllegalArgumentException when the policy needs a workload and none was given
     */
    public GpuPlugins build() {
      if (needsWorkload(policy) && workload == null) {
        throw new IllegalArgumentException("GPU plugins: policy " + policy.name()
            + " needs a target workload (GpuWorkload.typicalOf(pods) or GpuWorkload.of(shapes))");
      }
      return new GpuPlugins(requireOneGroup, policy, workload, seed);
    }
  }

  private static boolean needsWorkload(@Nullable GpuPolicy p) {
    return p != null && p.needsWorkload();
  }

  /**
   * @param requireOneGroup whether a multi-GPU pod fits only where one interconnect group (or NUMA node) holds all
   *     its devices; when false that is only preferred (scored)
   */
  public static GpuPlugins create(boolean requireOneGroup) {
    return new GpuPlugins(requireOneGroup, null, null, 0);
  }

  /** The enabled placement policy, if any. */
  public Optional<GpuPolicy> policy() {
    return Optional.ofNullable(policy);
  }

  public GpuAssignments assignments() {
    return assignments;
  }

  /**
   * {@code base} plus the GPU plugins: fit, reserve, topology and a score plugin per {@link GpuPolicy} (those that
   * need a target workload only when one was given). Reserve gives a share pod the device the enabled policy picks.
   */
  public PluginRegistry registry(PluginRegistry base) {
    // The enabled policy's score plugin and Reserve share one scorer: its device choice may depend on its cycle.
    GpuScorer devicePicker = policy == null ? null : policy.create(workload, seed);
    PluginRegistry.Builder b = base.toBuilder()
        .register(GpuFilterPlugin.NAME, h -> new GpuFilterPlugin(assignments, requireOneGroup))
        .register(GpuReservePlugin.NAME,
            h -> new GpuReservePlugin(assignments, h::snapshot, requireOneGroup, devicePicker))
        .register(GpuTopologyPlugin.NAME, h -> new GpuTopologyPlugin(assignments));
    for (GpuPolicy p : GpuPolicy.values()) {
      if (!p.needsWorkload() || workload != null) {
        b.register(p.pluginName(), h -> new GpuScorePlugin(p.pluginName(),
            p == policy ? devicePicker : p.create(workload, seed), assignments, seed));
      }
    }
    return b.build();
  }

  /**
   * kube's default profile plus the GPU plugins, and the policy's score plugin with weight {@value #POLICY_WEIGHT}
   * when a policy is set.
   */
  public SchedulerProfile profile() {
    SchedulerProfile.Builder b = DefaultPlugins.profile().toBuilder()
        .plugin(GpuFilterPlugin.NAME, 0)
        .plugin(GpuReservePlugin.NAME, 0)
        .plugin(GpuTopologyPlugin.NAME, TOPOLOGY_WEIGHT)
        .pluginArgs(NodeResourcesFitPlugin.NAME,
            Map.of("ignoredResources", List.of(GpuRequests.WHOLE, GpuRequests.MILLI)));
    if (policy != null) {
      b.plugin(policy.pluginName(), POLICY_WEIGHT);
    }
    return b.build();
  }

  /**
   * The FGD paper's setting: kube's default filters and the GPU plugins, every node scored, and the policy's score
   * plugin as the only score that counts (the default score plugins are disabled at Score, kube's way of muting a
   * scorer: a weight of 0 counts as 1).
   *
   * @throws IllegalStateException when no policy is set
   */
  public SchedulerProfile policyOnlyProfile() {
    if (policy == null) {
      throw new IllegalStateException("GPU plugins: policyOnlyProfile needs a policy (GpuPlugins.builder().policy)");
    }
    SchedulerProfile base = profile();
    SchedulerProfile.Builder b = base.toBuilder().percentageOfNodesToScore(100);
    for (SchedulerProfile.PluginRef ref : base.plugins()) {
      if (ref.weight() > 0 && !ref.name().equals(policy.pluginName())) {
        b.disableAt(ExtensionPoint.SCORE, ref.name());
      }
    }
    return b.plugin(policy.pluginName(), 1).build();
  }

  /** {@code delegate} wrapped to record the reserved device ids on the pods it binds. */
  public Binder binder(Binder delegate) {
    return new GpuBinder(delegate, assignments);
  }
}
