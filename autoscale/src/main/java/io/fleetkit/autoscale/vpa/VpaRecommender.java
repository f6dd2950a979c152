package io.fleetkit.autoscale.vpa;

import io.fleetkit.api.autoscaling.ContainerResourcePolicy;
import io.fleetkit.api.autoscaling.ContainerScalingMode;
import io.fleetkit.api.autoscaling.PodResourcePolicy;
import io.fleetkit.api.autoscaling.RecommendedContainerResources;
import io.fleetkit.api.autoscaling.RecommendedPodResources;
import io.fleetkit.api.autoscaling.VerticalPodAutoscaler;
import io.fleetkit.api.autoscaling.VerticalPodAutoscalerStatus;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The VPA recommender's estimators ({@code recommender/logic/recommender.go}, {@code estimator.go}):
 *
 * <table>
 *   <caption>Estimators</caption>
 *   <tr><th></th><th>cpu</th><th>memory</th><th>then</th></tr>
 *   <tr><td>target</td><td>P90 of usage</td><td>P90 of daily peaks</td><td>+15%, per-pod minimum</td></tr>
 *   <tr><td>lower bound</td><td>P50</td><td>P50</td><td>+15%, {@code * (1 + 0.001/confidence)^-2}, minimum</td></tr>
 *   <tr><td>upper bound</td><td>P95</td><td>P95</td><td>+15%, {@code * (1 + 1/confidence)^1}, minimum</td></tr>
 * </table>
 *
 * The per-pod minimums (25 millicores, 250 MiB) are split evenly between the pod's containers. Then the container's
 * resource policy caps target and bounds to {@code [minAllowed, maxAllowed]} (the uncapped target is kept), and only
 * the controlled resources are reported; a container in mode Off gets no recommendation. Immutable, thread-safe.
 *
 * @param targetPercentile 0.9
 * @param lowerBoundPercentile 0.5
 * @param upperBoundPercentile 0.95
 * @param safetyMarginFraction 0.15 ({@code recommendation-margin-fraction})
 * @param podMinCpuMillicores 25 ({@code pod-recommendation-min-cpu-millicores})
 * @param podMinMemoryMb 250 ({@code pod-recommendation-min-memory-mb}, in MiB)
 * @param confidenceInterval 24 h ({@code confidence-interval-cpu/memory})
 */
public record VpaRecommender(double targetPercentile, double lowerBoundPercentile, double upperBoundPercentile,
    double safetyMarginFraction, double podMinCpuMillicores, double podMinMemoryMb, Duration confidenceInterval) {
  /** Upstream's defaults. */
  public static final VpaRecommender DEFAULT = new VpaRecommender(0.9, 0.5, 0.95, 0.15, 25, 250, Duration.ofHours(24));

  public VpaRecommender {
    for (double p : new double[] {targetPercentile, lowerBoundPercentile, upperBoundPercentile}) {
      if (!(p >= 0 && p <= 1)) {
        throw new IllegalArgumentException("vpa recommender: percentile " + p + " must be in [0, 1]");
      }
    }
    if (!(safetyMarginFraction >= 0) || !(podMinCpuMillicores >= 0) || !(podMinMemoryMb >= 0)) {
      throw new IllegalArgumentException("vpa recommender: margin " + safetyMarginFraction + " and minimums "
          + podMinCpuMillicores + "m/" + podMinMemoryMb + "Mi must not be negative");
    }
    if (confidenceInterval.isNegative() || confidenceInterval.isZero()) {
      throw new IllegalArgumentException("vpa recommender: confidenceInterval " + confidenceInterval + " must be > 0");
    }
  }

  /** Target, lower and upper bound of one container before capping. */
  public record Estimates(ResourceEstimate target, ResourceEstimate lowerBound, ResourceEstimate upperBound) {}

  /** {@code percentileEstimator}: the cpu usage and memory peak percentiles. */
  public static ResourceEstimate percentile(ContainerUsageState s, double cpuPercentile, double memoryPercentile) {
    return new ResourceEstimate(ResourceAmounts.cpuFromCores(s.cpuUsage().percentile(cpuPercentile)),
        ResourceAmounts.fromFloat(s.memoryPeaks().percentile(memoryPercentile)));
  }

  /** {@code marginEstimator}: {@code amount + (long) (amount * margin)}. */
  public static ResourceEstimate withMargin(ResourceEstimate e, double margin) {
    return new ResourceEstimate(e.cpuMillicores() + (long) (e.cpuMillicores() * margin),
        e.memoryBytes() + (long) (e.memoryBytes() * margin));
  }

  /** {@code confidenceMultiplier}: {@code amount * (1 + multiplier / confidence)^exponent}, clamped. */
  public static ResourceEstimate withConfidence(ResourceEstimate e, double multiplier, double exponent,
      double confidence) {
    double factor = Math.pow(1.0 + multiplier / confidence, exponent);
    return new ResourceEstimate(ResourceAmounts.fromFloat(e.cpuMillicores() * factor),
        ResourceAmounts.fromFloat(e.memoryBytes() * factor));
  }

  /** {@code minResourcesEstimator}. */
  public static ResourceEstimate atLeast(ResourceEstimate e, ResourceEstimate min) {
    return new ResourceEstimate(Math.max(e.cpuMillicores(), min.cpuMillicores()),
        Math.max(e.memoryBytes(), min.memoryBytes()));
  }

  /** The per-container minimum of a pod with {@code containers} containers. */
  public ResourceEstimate containerMinimum(int containers) {
    double fraction = 1.0 / Math.max(1, containers);
    long cpu = ResourceAmounts.scale(ResourceAmounts.cpuFromCores(podMinCpuMillicores * 0.001), fraction);
    long mem = ResourceAmounts.scale(ResourceAmounts.fromFloat(podMinMemoryMb * 1024 * 1024), fraction);
    return new ResourceEstimate(cpu, mem);
  }

  /** The three estimates for one container of a pod with {@code containersInPod} containers. */
  public Estimates estimate(ContainerUsageState s, int containersInPod) {
    ResourceEstimate min = containerMinimum(containersInPod);
    double confidence = s.confidence(confidenceInterval);
    ResourceEstimate target = withMargin(percentile(s, targetPercentile, targetPercentile), safetyMarginFraction);
    ResourceEstimate lower = withConfidence(
        withMargin(percentile(s, lowerBoundPercentile, lowerBoundPercentile), safetyMarginFraction), 0.001, -2.0,
        confidence);
    ResourceEstimate upper = withConfidence(
        withMargin(percentile(s, upperBoundPercentile, upperBoundPercentile), safetyMarginFraction), 1.0, 1.0,
        confidence);
    return new Estimates(atLeast(target, min), atLeast(lower, min), atLeast(upper, min));
  }

  /**
   * Recommendations for a pod's containers (keyed by container name, in the map's order), capped by the policy.
   */
  public RecommendedPodResources recommend(Map<String, ContainerUsageState> containers,
      @Nullable PodResourcePolicy policy) {
    List<RecommendedContainerResources> out = new ArrayList<>();
    for (Map.Entry<String, ContainerUsageState> e : containers.entrySet()) {
      Optional<ContainerResourcePolicy> p = policy == null ? Optional.empty() : policy.policyFor(e.getKey());
      if (p.isPresent() && p.get().mode() == ContainerScalingMode.Off) {
        continue;
      }
      Estimates est = estimate(e.getValue(), containers.size());
      out.add(toRecommendation(e.getKey(), est, p.orElse(null)));
    }
    return new RecommendedPodResources(out);
  }

  /**
   * {@code vpa} with its status recommendation computed from the usage of its pods' containers (keyed by container
   * name), keeping its conditions; write it with {@code ObjectStore.updateStatus}.
   */
  public VerticalPodAutoscaler withRecommendation(VerticalPodAutoscaler vpa,
      Map<String, ContainerUsageState> containers) {
    RecommendedPodResources rec = recommend(containers, vpa.spec().resourcePolicy());
    return vpa.withStatus(new VerticalPodAutoscalerStatus(rec, vpa.status().conditions()));
  }

  static RecommendedContainerResources toRecommendation(String name, Estimates est,
      @Nullable ContainerResourcePolicy policy) {
    List<String> controlled = policy == null ? ContainerResourcePolicy.DEFAULT_CONTROLLED_RESOURCES
        : policy.controlledResources();
    ResourceList uncapped = resources(est.target(), controlled);
    return new RecommendedContainerResources(name, cap(uncapped, policy), cap(resources(est.lowerBound(), controlled),
        policy), cap(resources(est.upperBound(), controlled), policy), uncapped);
  }

  private static ResourceList resources(ResourceEstimate e, List<String> controlled) {
    ResourceList.Builder b = ResourceList.builder();
    if (controlled.contains(ResourceNames.CPU)) {
      b.put(ResourceNames.CPU, Quantity.ofMilli(e.cpuMillicores()));
    }
    if (controlled.contains(ResourceNames.MEMORY)) {
      b.put(ResourceNames.MEMORY, Quantity.ofBytes(e.memoryBytes()));
    }
    return b.build();
  }

  /** Caps each resource to the policy's {@code [minAllowed, maxAllowed]}. */
  static ResourceList cap(ResourceList r, @Nullable ContainerResourcePolicy policy) {
    if (policy == null) {
      return r;
    }
    ResourceList.Builder b = ResourceList.builder();
    for (String name : r.names()) {
      Quantity q = r.get(name);
      if (policy.minAllowed().has(name)) {
        q = Quantity.max(q, policy.minAllowed().get(name));
      }
      if (policy.maxAllowed().has(name)) {
        q = Quantity.min(q, policy.maxAllowed().get(name));
      }
      b.put(name, q);
    }
    return b.build();
  }
}
