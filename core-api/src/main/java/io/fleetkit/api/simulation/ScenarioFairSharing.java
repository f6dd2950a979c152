package io.fleetkit.api.simulation;

import io.fleetkit.api.Violations;
import java.util.List;
import java.util.Objects;

/**
 * Kueue's Configuration {@code fairSharing} for a scenario's queues: whether fair sharing is on, and the rules of
 * fair-sharing preemption, in the shape of Kueue's Configuration:
 *
 * <pre>
 * fairSharing:
 *   enable: true                  # default true when fairSharing is given
 *   preemptionStrategies: [LessThanOrEqualToFinalShare, LessThanInitialShare]   # the default
 * </pre>
 *
 * <p>With fair sharing on, the queues of a cohort share its unused quota in proportion to their {@code
 * fairSharing.weight} (Kueue's ClusterQueue, Cohort and LocalQueue field): the scheduler admits first from the queue
 * whose share (its usage above its nominal quota, weighted) would be lowest, and preemption within a cohort takes
 * from the queues with the highest share under {@code preemptionStrategies}. {@link Scenario} checks the strategies
 * as Kueue's {@code validateFairSharing} does: only the lists of {@link #SUPPORTED_STRATEGIES}.
 *
 * @param enable whether fair sharing is on (Kueue v1beta1's {@code enable}; in v1beta2 the section's presence)
 * @param preemptionStrategies the strategies by Kueue's names, tried in order
 */
public record ScenarioFairSharing(boolean enable, List<String> preemptionStrategies) {
  /** Kueue's {@code LessThanOrEqualToFinalShare}. */
  public static final String LESS_THAN_OR_EQUAL_TO_FINAL_SHARE = "LessThanOrEqualToFinalShare";
  /** Kueue's {@code LessThanInitialShare}. */
  public static final String LESS_THAN_INITIAL_SHARE = "LessThanInitialShare";
  /** Kueue's default strategies (its v1beta1 defaulting). */
  public static final List<String> DEFAULT_STRATEGIES = List.of(LESS_THAN_OR_EQUAL_TO_FINAL_SHARE,
      LESS_THAN_INITIAL_SHARE);
  /** The only lists Kueue accepts ({@code validStrategySets}). */
  public static final List<List<String>> SUPPORTED_STRATEGIES = List.of(List.of(LESS_THAN_OR_EQUAL_TO_FINAL_SHARE),
      List.of(LESS_THAN_INITIAL_SHARE), DEFAULT_STRATEGIES);
  /** Fair sharing on with the default strategies. */
  public static final ScenarioFairSharing ENABLED = new ScenarioFairSharing(true, DEFAULT_STRATEGIES);

  public ScenarioFairSharing {
    preemptionStrategies = List.copyOf(Objects.requireNonNull(preemptionStrategies, "preemptionStrategies"));
  }

  /**
   * Reports what Kueue's {@code validateFairSharing} refuses, at {@code p} ({@code spec.fairSharing}): no strategy
   * ({@code must be specified}), or a list that is not one of {@link #SUPPORTED_STRATEGIES}.
   */
  void validate(Violations v, String p) {
    if (preemptionStrategies.isEmpty()) {
      v.add(p + ".preemptionStrategies", "must be specified", null);
    } else if (!SUPPORTED_STRATEGIES.contains(preemptionStrategies)) {
      v.add(p + ".preemptionStrategies", "Unsupported value: supported values: " + String.join(", ",
          SUPPORTED_STRATEGIES.stream().map(l -> "[" + String.join(", ", l) + "]").toList()),
          "[" + String.join(", ", preemptionStrategies) + "]");
    }
  }
}
