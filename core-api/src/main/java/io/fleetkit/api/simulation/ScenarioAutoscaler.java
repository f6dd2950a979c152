package io.fleetkit.api.simulation;

import io.fleetkit.api.Violations;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.labels.Validation;
import io.fleetkit.api.resource.Quantity;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The cluster autoscaler's options a scenario sets, each named after upstream cluster-autoscaler's flag in camelCase;
 * an option left out ({@code null}, or an empty list) keeps upstream's default. The simulator passes them to the
 * cluster autoscaler it runs when {@code features.clusterAutoscaler} is on ({@link Scenario} refuses them when it is
 * off).
 *
 * <pre>
 * clusterAutoscaler:
 *   expander: least-nodes,least-waste      # --expander: one of EXPANDERS, or a chain of them
 *   scaleDownUtilizationThreshold: 0.3     # --scale-down-utilization-threshold (0.5)
 *   scaleDownGpuUtilizationThreshold: 0.3  # --scale-down-gpu-utilization-threshold (0.5)
 *   scaleDownUnneededTime: 2m              # --scale-down-unneeded-time (10m)
 *   scaleDownDelayAfterAdd: 2m             # --scale-down-delay-after-add (10m)
 *   scaleDownDelayAfterDelete: 0s          # --scale-down-delay-after-delete (0s: one loop)
 *   scaleDownDelayAfterFailure: 3m         # --scale-down-delay-after-failure (3m)
 *   maxNodeProvisionTime: 15m              # --max-node-provision-time (15m)
 *   balanceSimilarNodeGroups: true         # --balance-similar-node-groups (false)
 *   balancingIgnoreLabels: [example.com/rack]   # --balancing-ignore-label, repeated (none)
 *   coresTotal: {min: 0, max: 64}          # --cores-total min:max, whole cores (0:320000)
 *   memoryTotal: {min: 0, max: 256Gi}      # --memory-total min:max, quantities of bytes (0:6400000Gi)
 *   gpuTotal:                              # --gpu-total type:min:max, repeated (none)
 *   - {type: a100, min: 0, max: 16}        #   GPUs of nodes labelled fleetkit.io/accelerator=a100
 *   maxNodesTotal: 20                      # --max-nodes-total (0: unlimited)
 *   nodeDeleteDelayAfterTaint: 5s          # --node-delete-delay-after-taint (5s)
 *   cordonNodeBeforeTerminating: false     # --cordon-node-before-terminating (true)
 * </pre>
 *
 * <p>The record holds what was written; {@link Scenario} validates it (durations not negative, thresholds between 0
 * and 1, {@code min} not above {@code max}, known expanders, GPU types given once) and names the field of each broken
 * rule.
 *
 * @param expander {@code --expander}: one of {@link #EXPANDERS}, or several separated by commas, each narrowing the
 *     options the previous one kept; {@code null}: {@value #DEFAULT_EXPANDER}
 * @param scaleDownUtilizationThreshold a node whose requested cpu and memory, as shares of its allocatable, are both
 *     below this (between 0 and 1) may be removed
 * @param scaleDownGpuUtilizationThreshold the same for a GPU node, by its requested GPUs
 * @param scaleDownUnneededTime how long a node must be unneeded before it is removed
 * @param scaleDownDelayAfterAdd how long after a scale-up scale-down resumes
 * @param scaleDownDelayAfterDelete how long after a node deletion scale-down resumes
 * @param scaleDownDelayAfterFailure how long after a failed scale-down scale-down resumes
 * @param maxNodeProvisionTime how long a launched node may take to become ready before it is removed and its pool
 *     backed off
 * @param balanceSimilarNodeGroups whether a scale-up is split over the pools similar to the chosen one
 * @param balancingIgnoreLabels labels left out when comparing pools for balancing (label keys)
 * @param minCoresTotal {@code --cores-total}'s minimum: scale-down keeps at least this many cores in the cluster
 * @param maxCoresTotal {@code --cores-total}'s maximum: scale-up adds no node that would take the cluster over this
 *     many cores (0: no limit)
 * @param minMemoryTotal {@code --memory-total}'s minimum, a quantity of bytes (upstream's flag counts GiB)
 * @param maxMemoryTotal {@code --memory-total}'s maximum, a quantity of bytes (0: no limit)
 * @param maxNodesTotal {@code --max-nodes-total}: the most nodes the cluster may have (0: unlimited)
 * @param gpuTotal {@code --gpu-total}, one entry per GPU type: the cluster's GPUs of that type kept between its
 *     {@code min} and {@code max} (empty: no GPU limit)
 * @param nodeDeleteDelayAfterTaint {@code --node-delete-delay-after-taint}: how long after tainting a node it removes
 *     the autoscaler waits before draining and deleting it
 * @param cordonNodeBeforeTerminating {@code --cordon-node-before-terminating}: whether a node the autoscaler removes
 *     is also cordoned while it is tainted (and uncordoned when its deletion fails)
 */
public record ScenarioAutoscaler(@Nullable String expander, @Nullable Double scaleDownUtilizationThreshold,
    @Nullable Double scaleDownGpuUtilizationThreshold, @Nullable Duration scaleDownUnneededTime,
    @Nullable Duration scaleDownDelayAfterAdd, @Nullable Duration scaleDownDelayAfterDelete,
    @Nullable Duration scaleDownDelayAfterFailure, @Nullable Duration maxNodeProvisionTime,
    @Nullable Boolean balanceSimilarNodeGroups, List<String> balancingIgnoreLabels, @Nullable Long minCoresTotal,
    @Nullable Long maxCoresTotal, @Nullable Quantity minMemoryTotal, @Nullable Quantity maxMemoryTotal,
    @Nullable Integer maxNodesTotal, List<GpuTotal> gpuTotal, @Nullable Duration nodeDeleteDelayAfterTaint,
    @Nullable Boolean cordonNodeBeforeTerminating) {
  /** Upstream's default expander. */
  public static final String DEFAULT_EXPANDER = "least-waste";
  /**
   * The expanders a scenario may name, as FleetKit's cluster autoscaler has them ({@code Expanders.named}).
   * {@code priority} is not among them: it needs its priority ConfigMap, which a scenario cannot give.
   */
  public static final List<String> EXPANDERS = List.of("least-waste", "most-pods", "least-nodes", "price", "random");
  /**
   * The expander that always keeps a single option (upstream's {@code random} strategy): no expander may follow it in
   * a chain.
   */
  public static final String SINGLE_RESULT_EXPANDER = "random";
  /** Nothing set: upstream's defaults. */
  public static final ScenarioAutoscaler DEFAULTS = builder().build();

  public ScenarioAutoscaler {
    balancingIgnoreLabels = List.copyOf(balancingIgnoreLabels);
    gpuTotal = List.copyOf(gpuTotal);
  }

  /**
   * One {@code --gpu-total=type:min:max} (upstream's {@code GpuLimits}): the cluster's GPUs ({@code nvidia.com/gpu})
   * on nodes whose {@value NodePool#GPU_LABEL} label is {@code type} are kept at or over {@code min} by scale-down and
   * at or under {@code max} by scale-up. Holds what was written; {@link Scenario} validates it.
   *
   * @param type the GPU type, a label value of {@value NodePool#GPU_LABEL}
   * @param min the fewest GPUs of the type scale-down leaves (0: no minimum)
   * @param max the most GPUs of the type scale-up adds up to (0: no maximum)
   */
  public record GpuTotal(String type, long min, long max) {
    public GpuTotal {
      Objects.requireNonNull(type, "type");
    }
  }

  /** A builder with nothing set. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from these options. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.expander = expander;
    b.scaleDownUtilizationThreshold = scaleDownUtilizationThreshold;
    b.scaleDownGpuUtilizationThreshold = scaleDownGpuUtilizationThreshold;
    b.scaleDownUnneededTime = scaleDownUnneededTime;
    b.scaleDownDelayAfterAdd = scaleDownDelayAfterAdd;
    b.scaleDownDelayAfterDelete = scaleDownDelayAfterDelete;
    b.scaleDownDelayAfterFailure = scaleDownDelayAfterFailure;
    b.maxNodeProvisionTime = maxNodeProvisionTime;
    b.balanceSimilarNodeGroups = balanceSimilarNodeGroups;
    b.balancingIgnoreLabels = balancingIgnoreLabels;
    b.minCoresTotal = minCoresTotal;
    b.maxCoresTotal = maxCoresTotal;
    b.minMemoryTotal = minMemoryTotal;
    b.maxMemoryTotal = maxMemoryTotal;
    b.maxNodesTotal = maxNodesTotal;
    b.gpuTotal = gpuTotal;
    b.nodeDeleteDelayAfterTaint = nodeDeleteDelayAfterTaint;
    b.cordonNodeBeforeTerminating = cordonNodeBeforeTerminating;
    return b;
  }

  /** The expanders of {@link #expander()} in chain order: {@value #DEFAULT_EXPANDER} alone when none is set. */
  public List<String> expanderChain() {
    if (expander == null) {
      return List.of(DEFAULT_EXPANDER);
    }
    return List.of(expander.split(",", -1)).stream().map(String::trim).toList();
  }

  /**
   * Records in {@code v} each rule these options break, naming the field under {@code p}
   * ({@code spec.clusterAutoscaler}): upstream's rules for its flags (an unknown expander, one named twice or after
   * {@value #SINGLE_RESULT_EXPANDER}; a threshold outside 0..1; a negative duration, count or total; a total's minimum
   * above its maximum), label keys for {@code balancingIgnoreLabels}, and for {@code gpuTotal} a GPU type that is a
   * non-blank label value, given once.
   */
  void validate(Violations v, String p) {
    if (expander != null) {
      Set<String> seen = new HashSet<>();
      List<String> chain = expanderChain();
      for (int i = 0; i < chain.size(); i++) {
        String name = chain.get(i);
        if (!EXPANDERS.contains(name)) {
          v.add(p + ".expander", "must be one of " + String.join(", ", EXPANDERS) + ", or several of them separated "
              + "by commas (priority needs its ConfigMap, which a scenario cannot give)", name);
        } else if (!seen.add(name)) {
          v.add(p + ".expander", "must not name an expander more than once", name);
        } else if (i > 0 && chain.get(i - 1).equals(SINGLE_RESULT_EXPANDER)) {
          v.add(p + ".expander", "must not have an expander after " + SINGLE_RESULT_EXPANDER + " (it always keeps "
              + "one option, so " + name + " would never be used)", name);
        }
      }
    }
    share(v, p + ".scaleDownUtilizationThreshold", scaleDownUtilizationThreshold);
    share(v, p + ".scaleDownGpuUtilizationThreshold", scaleDownGpuUtilizationThreshold);
    nonNegative(v, p + ".scaleDownUnneededTime", scaleDownUnneededTime);
    nonNegative(v, p + ".scaleDownDelayAfterAdd", scaleDownDelayAfterAdd);
    nonNegative(v, p + ".scaleDownDelayAfterDelete", scaleDownDelayAfterDelete);
    nonNegative(v, p + ".scaleDownDelayAfterFailure", scaleDownDelayAfterFailure);
    nonNegative(v, p + ".maxNodeProvisionTime", maxNodeProvisionTime);
    nonNegative(v, p + ".nodeDeleteDelayAfterTaint", nodeDeleteDelayAfterTaint);
    for (int i = 0; i < balancingIgnoreLabels.size(); i++) {
      v.qualifiedName(p + ".balancingIgnoreLabels[" + i + "]", balancingIgnoreLabels.get(i));
    }
    v.nonNegative(p + ".coresTotal.min", minCoresTotal);
    v.nonNegative(p + ".coresTotal.max", maxCoresTotal);
    if (minCoresTotal != null && maxCoresTotal != null && maxCoresTotal > 0 && minCoresTotal > maxCoresTotal) {
      v.add(p + ".coresTotal.min", "must not be more than coresTotal.max " + maxCoresTotal, minCoresTotal);
    }
    Quantity minMemory = minMemoryTotal;
    Quantity maxMemory = maxMemoryTotal;
    if (minMemory != null) {
      v.nonNegative(p + ".memoryTotal.min", minMemory);
    }
    if (maxMemory != null) {
      v.nonNegative(p + ".memoryTotal.max", maxMemory);
    }
    if (minMemory != null && maxMemory != null && maxMemory.signum() > 0 && minMemory.compareTo(maxMemory) > 0) {
      v.add(p + ".memoryTotal.min", "must not be more than memoryTotal.max " + maxMemory, minMemory);
    }
    v.nonNegative(p + ".maxNodesTotal", maxNodesTotal);
    Set<String> types = new HashSet<>();
    for (int i = 0; i < gpuTotal.size(); i++) {
      GpuTotal g = gpuTotal.get(i);
      String f = p + ".gpuTotal[" + i + "]";
      if (g.type().isBlank()) {
        v.add(f + ".type", Violations.REQUIRED + ": the GPU type, as nodes carry it in their " + NodePool.GPU_LABEL
            + " label", g.type());
      } else {
        for (String rule : Validation.isValidLabelValue(g.type())) {
          v.add(f + ".type", rule + " (a GPU type is a value of the " + NodePool.GPU_LABEL + " label)", g.type());
        }
        if (!types.add(g.type())) {
          v.add(f + ".type", Violations.DUPLICATE + ": each GPU type takes one entry", g.type());
        }
      }
      v.nonNegative(f + ".min", g.min());
      v.nonNegative(f + ".max", g.max());
      if (g.max() > 0 && g.min() > g.max()) {
        v.add(f + ".min", "must not be more than gpuTotal[" + i + "].max " + g.max(), g.min());
      }
    }
  }

  private static void share(Violations v, String field, @Nullable Double x) {
    if (x != null && !(x >= 0 && x <= 1)) {
      v.add(field, "must be between 0 and 1", x);
    }
  }

  private static void nonNegative(Violations v, String field, @Nullable Duration d) {
    if (d != null && d.isNegative()) {
      v.add(field, Violations.NON_NEGATIVE, d);
    }
  }

  /** Builds {@link ScenarioAutoscaler}; every option starts unset (upstream's default). Not thread-safe. */
  public static final class Builder {
    private @Nullable String expander;
    private @Nullable Double scaleDownUtilizationThreshold;
    private @Nullable Double scaleDownGpuUtilizationThreshold;
    private @Nullable Duration scaleDownUnneededTime;
    private @Nullable Duration scaleDownDelayAfterAdd;
    private @Nullable Duration scaleDownDelayAfterDelete;
    private @Nullable Duration scaleDownDelayAfterFailure;
    private @Nullable Duration maxNodeProvisionTime;
    private @Nullable Boolean balanceSimilarNodeGroups;
    private List<String> balancingIgnoreLabels = List.of();
    private @Nullable Long minCoresTotal;
    private @Nullable Long maxCoresTotal;
    private @Nullable Quantity minMemoryTotal;
    private @Nullable Quantity maxMemoryTotal;
    private @Nullable Integer maxNodesTotal;
    private List<GpuTotal> gpuTotal = List.of();
    private @Nullable Duration nodeDeleteDelayAfterTaint;
    private @Nullable Boolean cordonNodeBeforeTerminating;

    private Builder() {}

    public Builder expander(@Nullable String v) { expander = v; return this; }
    public Builder scaleDownUtilizationThreshold(@Nullable Double v) { scaleDownUtilizationThreshold = v; return this; }
    public Builder scaleDownGpuUtilizationThreshold(@Nullable Double v) {
      scaleDownGpuUtilizationThreshold = v;
      return this;
    }
    public Builder scaleDownUnneededTime(@Nullable Duration v) { scaleDownUnneededTime = v; return this; }
    public Builder scaleDownDelayAfterAdd(@Nullable Duration v) { scaleDownDelayAfterAdd = v; return this; }
    public Builder scaleDownDelayAfterDelete(@Nullable Duration v) { scaleDownDelayAfterDelete = v; return this; }
    public Builder scaleDownDelayAfterFailure(@Nullable Duration v) { scaleDownDelayAfterFailure = v; return this; }
    public Builder maxNodeProvisionTime(@Nullable Duration v) { maxNodeProvisionTime = v; return this; }
    public Builder balanceSimilarNodeGroups(@Nullable Boolean v) { balanceSimilarNodeGroups = v; return this; }
    public Builder balancingIgnoreLabels(List<String> v) {
      balancingIgnoreLabels = Objects.requireNonNull(v, "balancingIgnoreLabels");
      return this;
    }
    /** {@code coresTotal: {min, max}}; either {@code null} for upstream's default of that side. */
    public Builder coresTotal(@Nullable Long min, @Nullable Long max) {
      minCoresTotal = min;
      maxCoresTotal = max;
      return this;
    }
    /** {@code memoryTotal: {min, max}}; either {@code null} for upstream's default of that side. */
    public Builder memoryTotal(@Nullable Quantity min, @Nullable Quantity max) {
      minMemoryTotal = min;
      maxMemoryTotal = max;
      return this;
    }
    public Builder maxNodesTotal(@Nullable Integer v) { maxNodesTotal = v; return this; }
    /** {@code gpuTotal}: one entry per GPU type; empty for none. */
    public Builder gpuTotal(List<GpuTotal> v) {
      gpuTotal = Objects.requireNonNull(v, "gpuTotal");
      return this;
    }

    public Builder nodeDeleteDelayAfterTaint(@Nullable Duration v) { nodeDeleteDelayAfterTaint = v; return this; }
    public Builder cordonNodeBeforeTerminating(@Nullable Boolean v) { cordonNodeBeforeTerminating = v; return this; }

    public ScenarioAutoscaler build() {
      return new ScenarioAutoscaler(expander, scaleDownUtilizationThreshold, scaleDownGpuUtilizationThreshold,
          scaleDownUnneededTime, scaleDownDelayAfterAdd, scaleDownDelayAfterDelete, scaleDownDelayAfterFailure,
          maxNodeProvisionTime, balanceSimilarNodeGroups, balancingIgnoreLabels, minCoresTotal, maxCoresTotal,
          minMemoryTotal, maxMemoryTotal, maxNodesTotal, gpuTotal, nodeDeleteDelayAfterTaint,
          cordonNodeBeforeTerminating);
    }
  }
}
