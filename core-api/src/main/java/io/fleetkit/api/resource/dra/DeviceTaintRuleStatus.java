package io.fleetkit.api.resource.dra;

import io.fleetkit.api.meta.Condition;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The observed state of a {@link DeviceTaintRule} ({@code DeviceTaintRuleStatus}): conditions, at most
 * {@value #MAX_CONDITIONS}, of which the device taint eviction controller maintains
 * {@value #EVICTION_IN_PROGRESS}.
 *
 * @param conditions the rule's conditions
 */
public record DeviceTaintRuleStatus(List<Condition> conditions) {
  /** Kubernetes' {@code DeviceTaintRuleStatusMaxConditions}. */
  public static final int MAX_CONDITIONS = 8;
  /**
   * Kubernetes' {@code DeviceTaintConditionEvictionInProgress}: True while pods using devices the rule taints with
   * NoExecute still have to be evicted (reason {@value #PODS_PENDING_EVICTION}); False with reason
   * {@value #NOT_STARTED}, {@value #COMPLETED}, {@value #NO_EFFECT} or {@value #OTHER_EFFECT} otherwise.
   */
  public static final String EVICTION_IN_PROGRESS = "EvictionInProgress";
  public static final String PODS_PENDING_EVICTION = "PodsPendingEviction";
  public static final String NOT_STARTED = "NotStarted";
  public static final String COMPLETED = "Completed";
  public static final String NO_EFFECT = "NoEffect";
  public static final String OTHER_EFFECT = "OtherEffect";

  /** The status of a new rule. */
  public static final DeviceTaintRuleStatus EMPTY = new DeviceTaintRuleStatus(List.of());

  public DeviceTaintRuleStatus {
    conditions = List.copyOf(conditions);
  }

  /** The condition of {@code type}, or {@code null}. */
  public @Nullable Condition condition(String type) {
    for (Condition c : conditions) {
      if (c.type().equals(type)) {
        return c;
      }
    }
    return null;
  }

  /** This status with {@code c} replacing the condition of its type, or added. */
  public DeviceTaintRuleStatus withCondition(Condition c) {
    return new DeviceTaintRuleStatus(Condition.replacing(conditions, c));
  }
}
