package io.fleetkit.api.simulation;

import java.util.List;
import java.util.Objects;

/**
 * The scheduler a scenario runs: its scoring profile and, optionally, a GPU placement policy.
 *
 * <pre>
 * scheduler:
 *   profile: mostAllocated     # default | mostAllocated
 *   gpuPolicy: GapFill         # a GPU placement policy by name; absent: none
 * </pre>
 *
 * @param profile {@value #DEFAULT_PROFILE}: kube-scheduler's default profile (NodeResourcesFit scores
 *     LeastAllocated, spreading pods); {@value #MOST_ALLOCATED}: the same profile with NodeResourcesFit's
 *     {@code scoringStrategy.type: MostAllocated} (cpu and memory, weight 1 each), kube's bin-packing configuration,
 *     which leaves whole nodes empty for the autoscaler to remove
 * @param gpuPolicy empty for none ({@code nvidia.com/gpu} is then a plain extended resource, counted by
 *     NodeResourcesFit); otherwise the name of a GPU placement policy of the scheduler engine ({@code BestFit},
 *     {@code FGD}, {@code GapFill}, ...), which adds the per-device GPU plugins and that policy's score
 */
public record ScenarioScheduler(String profile, String gpuPolicy) {
  /** kube-scheduler's default profile. */
  public static final String DEFAULT_PROFILE = "default";
  /** kube's default profile with NodeResourcesFit scoring MostAllocated (bin packing). */
  public static final String MOST_ALLOCATED = "mostAllocated";
  /** The profiles a scenario may name. */
  public static final List<String> PROFILES = List.of(DEFAULT_PROFILE, MOST_ALLOCATED);
  /** The default profile without a GPU policy. */
  public static final ScenarioScheduler DEFAULT = new ScenarioScheduler(DEFAULT_PROFILE, "");

  public ScenarioScheduler {
    Objects.requireNonNull(profile, "profile");
    Objects.requireNonNull(gpuPolicy, "gpuPolicy");
  }

  /** Whether a GPU placement policy is chosen. */
  public boolean hasGpuPolicy() {
    return !gpuPolicy.isEmpty();
  }

  /** This scheduler with another GPU policy (empty: none). */
  public ScenarioScheduler withGpuPolicy(String policy) {
    return new ScenarioScheduler(profile, policy);
  }

  /** {@code profile default}, {@code profile mostAllocated, GPU policy FGD}. */
  public String describe() {
    return "profile " + profile + (gpuPolicy.isEmpty() ? "" : ", GPU policy " + gpuPolicy);
  }
}
