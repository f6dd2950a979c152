package io.fleetkit.scheduler.plugins.gpu;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The GPU placement policies: the FGD paper's baselines, FGD itself and ours. Each constant names its policy, its
 * engine plugin, and how to create its {@link GpuScorer}; the engine ({@link GpuPlugins}) and the trace replay of
 * {@code fleetkit-lab} both create policies only through {@link #create}, so a new policy is one {@link GpuScorer}
 * class plus one constant here.
 */
public enum GpuPolicy {
  /** Least weighted CPU+GPU left over after the placement, min-max normalised ({@link GpuBestFitPlugin}). */
  BEST_FIT("BestFit", GpuBestFitPlugin.NAME, false, (m, seed) -> new GpuBestFitPlugin()),
  /** Smallest dot product of the node's free resources and the pod's demand, Tetris-like ({@link GpuDotProductPlugin}). */
  DOT_PRODUCT("DotProduct", GpuDotProductPlugin.NAME, false, (m, seed) -> new GpuDotProductPlugin()),
  /** Shared GPUs first, then free GPUs of used nodes, then small idle nodes ({@link GpuPackingPlugin}). */
  GPU_PACKING("GpuPacking", GpuPackingPlugin.NAME, false, (m, seed) -> new GpuPackingPlugin()),
  /** Nodes already hosting GPU pods of the same kind ({@link GpuClusteringPlugin}). */
  GPU_CLUSTERING("GpuClustering", GpuClusteringPlugin.NAME, false, (m, seed) -> new GpuClusteringPlugin()),
  /** A seeded pseudo-random score per (pod, node) ({@link GpuRandomPlugin}). */
  RANDOM("Random", GpuRandomPlugin.NAME, false, (m, seed) -> new GpuRandomPlugin(seed)),
  /** Fragmentation gradient descent ({@link GpuFgdPlugin}). */
  FGD("FGD", GpuFgdPlugin.NAME, true, (m, seed) -> new GpuFgdPlugin(m)),
  /** Ours: FGD, its ties broken by CPU/GPU balance ({@link GpuFgdBalancedPlugin}). */
  FGD_BALANCED("FgdBalanced", GpuFgdBalancedPlugin.NAME, true, (m, seed) -> new GpuFgdBalancedPlugin(m)),
  /**
   * Ours, the best: share pods where they add the least expected stranded GPU, everything else as FgdBalanced
   * ({@link GpuGapFillPlugin}).
   */
  GAP_FILL("GapFill", GpuGapFillPlugin.NAME, true, (m, seed) -> new GpuGapFillPlugin(m)),
  /**
   * Ours: shares that accept any model placed by GapFill's gap value, measured per device model; model-constrained
   * and whole-GPU pods as FGD, CPU-only pods as FgdBalanced ({@link GpuModelGapFillPlugin}).
   */
  MODEL_GAP_FILL("ModelGapFill", GpuModelGapFillPlugin.NAME, true, (m, seed) -> new GpuModelGapFillPlugin(m)),
  /**
   * Ours: ModelGapFill's placement of GPU pods; pods accepting any model keep off the models that the arrived
   * model-constrained pods will need; CPU-only pods go first to the nodes without a free GPU, by best fit
   * ({@link GpuAdaptiveGapFillPlugin}).
   */
  ADAPTIVE_GAP_FILL("AdaptiveGapFill", GpuAdaptiveGapFillPlugin.NAME, true,
      (m, seed) -> new GpuAdaptiveGapFillPlugin(m)),
  /**
   * Ours, the one to use (ahead of FGD on every openb trace): AdaptiveGapFill, and while the fully free devices are fewer than the whole-GPU demand the arrived
   * pods predict before the cluster fills, a share that accepts any model takes no fully free device (it waits,
   * unschedulable, when no shared device has room): {@link WholeDeviceReservation}.
   */
  RESERVING_GAP_FILL("ReservingGapFill", GpuAdaptiveGapFillPlugin.RESERVING_NAME, true,
      (m, seed) -> new GpuAdaptiveGapFillPlugin(m, new WholeDeviceReservation()));

  /** Creates a policy's scorer from the target workload (null unless the policy needs one) and the seed. */
  @FunctionalInterface
  private interface Factory {
    GpuScorer create(@Nullable GpuWorkload workload, long seed);
  }

  private final String displayName;
  private final String pluginName;
  private final boolean needsWorkload;
  private final Factory factory;

  GpuPolicy(String displayName, String pluginName, boolean needsWorkload, Factory factory) {
    this.displayName = displayName;
    this.pluginName = pluginName;
    this.needsWorkload = needsWorkload;
    this.factory = factory;
  }

  /** The policy's short name, as reports print it ({@code BestFit}, {@code FGD}, {@code GapFill}). */
  public String displayName() {
    return displayName;
  }

  /** The name of the score plugin that runs this policy in the engine. */
  public String pluginName() {
    return pluginName;
  }

  /** Whether {@link #create} needs FGD's target workload. */
  public boolean needsWorkload() {
    return needsWorkload;
  }

  /**
   * A new scorer of this policy.
   *
   * @param workload FGD's target workload; required when {@link #needsWorkload()}, ignored otherwise
   * @param seed the seed of per-pod randomness ({@link #RANDOM})
   * @throws IllegalArgumentException when the policy needs a workload and none is given
   */
  public GpuScorer create(@Nullable GpuWorkload workload, long seed) {
    if (needsWorkload && workload == null) {
      throw new IllegalArgumentException("GPU policy " + name()
          + " needs a target workload (GpuWorkload.typicalOf(pods) or GpuWorkload.of(shapes))");
    }
    return Objects.requireNonNull(factory.create(workload, seed));
  }

  /**
   * The policy named {@code name}: an enum name, a display name or a plugin name ({@code BestFit}, {@code FGD},
   * {@code FgdBalanced}, {@code GpuGapFill}, {@code gap-fill}; {@code DotProd} as the FGD paper's result files
   * spell it), ignoring case, dashes and underscores.
   *
   * @throws IllegalArgumentException naming the accepted names when none matches
   */
  public static GpuPolicy of(String name) {
    String n = name.toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
    for (GpuPolicy p : values()) {
      String plugin = p.pluginName.toLowerCase(Locale.ROOT);
      if (p.name().replace("_", "").toLowerCase(Locale.ROOT).equals(n) || plugin.equals(n)
          || plugin.equals("gpu" + n) || p.displayName.toLowerCase(Locale.ROOT).equals(n)) {
        return p;
      }
    }
    if (n.equals("dotprod")) {
      return DOT_PRODUCT;
    }
    throw new IllegalArgumentException("GPU policy \"" + name + "\" is unknown (known: "
        + String.join(", ", Arrays.stream(values()).map(GpuPolicy::displayName).toList()) + ")");
  }

  @Override
  public String toString() {
    return displayName;
  }
}
