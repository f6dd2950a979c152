package io.fleetkit.scheduler.plugins.gpu;

import java.util.Arrays;
import java.util.Locale;

/**
 * The GPU placement policies available as score plugins (the FGD paper's baselines, FGD itself and ours). Each
 * names the plugin that implements it; {@link GpuPlugins.Builder#policy} enables one.
 */
public enum GpuPolicy {
  /** Least weighted CPU+GPU left over after the placement, min-max normalised ({@link GpuBestFitPlugin}). */
  BEST_FIT(GpuBestFitPlugin.NAME),
  /** Smallest dot product of the node's free resources and the pod's demand, Tetris-like ({@link GpuDotProductPlugin}). */
  DOT_PRODUCT(GpuDotProductPlugin.NAME),
  /** Shared GPUs first, then free GPUs of used nodes, then small idle nodes ({@link GpuPackingPlugin}). */
  GPU_PACKING(GpuPackingPlugin.NAME),
  /** Nodes already hosting GPU pods of the same kind ({@link GpuClusteringPlugin}). */
  GPU_CLUSTERING(GpuClusteringPlugin.NAME),
  /** A seeded pseudo-random score per (pod, node) ({@link GpuRandomPlugin}). */
  RANDOM(GpuRandomPlugin.NAME),
  /** Fragmentation gradient descent ({@link GpuFgdPlugin}). */
  FGD(GpuFgdPlugin.NAME),
  /** Ours: FGD, its ties broken by CPU/GPU balance ({@link GpuFgdBalancedPlugin}). */
  FGD_BALANCED(GpuFgdBalancedPlugin.NAME),
  /**
   * Ours, the best: share pods where they add the least expected stranded GPU, everything else as FgdBalanced
   * ({@link GpuGapFillPlugin}).
   */
  GAP_FILL(GpuGapFillPlugin.NAME);

  private final String pluginName;

  GpuPolicy(String pluginName) {
    this.pluginName = pluginName;
  }

  /** The name of the score plugin that implements this policy. */
  public String pluginName() {
    return pluginName;
  }

  /**
   * The policy named {@code name}: an enum name or a plugin name without its {@code Gpu} prefix ({@code BestFit},
   * {@code FGD}, {@code FgdBalanced}, {@code GapFill}), ignoring case, dashes and underscores.
   *
   * @throws IllegalArgumentException naming the accepted names when none matches
   */
  public static GpuPolicy of(String name) {
    String n = name.toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
    for (GpuPolicy p : values()) {
      String plugin = p.pluginName.toLowerCase(Locale.ROOT);
      if (p.name().replace("_", "").toLowerCase(Locale.ROOT).equals(n) || plugin.equals(n)
          || plugin.equals("gpu" + n)) {
        return p;
      }
    }
    throw new IllegalArgumentException("GPU policy \"" + name + "\" is unknown (known: "
        + String.join(", ", Arrays.stream(values()).map(GpuPolicy::name).toList()) + ")");
  }
}
