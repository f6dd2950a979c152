package io.fleetkit.autoscale.hpa;

import io.fleetkit.api.autoscaling.HPAScalingPolicy;
import io.fleetkit.api.autoscaling.HPAScalingPolicyType;
import io.fleetkit.api.autoscaling.HPAScalingRules;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerBehavior;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerCondition;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerConditionType;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerSpec;
import io.fleetkit.api.autoscaling.ScalingPolicySelect;
import io.fleetkit.api.meta.ConditionStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Turns the metrics' proposal into the replica count to set, as {@code horizontal.go} does: the stabilization
 * windows over past recommendations, then the rate limits of the {@code behavior} policies (or, without a behavior,
 * the legacy rule: the highest recommendation of the last 5 minutes, at most {@code max(2 * current, 4)}), then
 * min/max replicas. It keeps per-HPA history (recommendations and scale events), keyed by {@code namespace/name}.
 *
 * <p>Thread-safe: all state is guarded by this object's monitor.
 */
public final class ReplicaNormalizer {
  /** Legacy scale-up limit: at most twice the current replicas ({@code scaleUpLimitFactor}). */
  static final double SCALE_UP_LIMIT_FACTOR = 2.0;
  /** Legacy scale-up limit: but always up to 4 ({@code scaleUpLimitMinimum}). */
  static final double SCALE_UP_LIMIT_MINIMUM = 4.0;

  static final String MSG_SCALE_UP_STABILIZED =
      "recent recommendations were lower than current one, applying the lowest recent recommendation";
  static final String MSG_SCALE_DOWN_STABILIZED =
      "recent recommendations were higher than current one, applying the highest recent recommendation";
  static final String MSG_READY = "recommended size matches current size";
  static final String MSG_WITHIN_RANGE = "the desired count is within the acceptable range";
  static final String MSG_SCALE_UP_LIMIT = "the desired replica count is increasing faster than the maximum scale rate";
  static final String MSG_SCALE_DOWN_LIMIT =
      "the desired replica count is decreasing faster than the maximum scale rate";
  static final String MSG_TOO_MANY = "the desired replica count is more than the maximum replica count";
  static final String MSG_TOO_FEW = "the desired replica count is less than the minimum replica count";

  private final Clock clock;
  private final Duration downscaleStabilizationWindow;
  private final Map<String, Recommendations> recommendations = new HashMap<>();
  private final Map<String, List<ScaleEvent>> scaleUpEvents = new HashMap<>();
  private final Map<String, List<ScaleEvent>> scaleDownEvents = new HashMap<>();
  /** The last condition {@link #condition} made per type and status (immutable, shared by the results). */
  private final HorizontalPodAutoscalerCondition[] lastConditions =
      new HorizontalPodAutoscalerCondition[HorizontalPodAutoscalerConditionType.values().length
          * ConditionStatus.values().length];

  /**
   * @param downscaleStabilizationWindow the controller's {@code --horizontal-pod-autoscaler-downscale-stabilization}
   *     (5 min in Kubernetes): the legacy window and the scale-down window of a behavior that leaves it unset
   */
  public ReplicaNormalizer(Clock clock, Duration downscaleStabilizationWindow) {
    this.clock = Objects.requireNonNull(clock, "clock");
    if (downscaleStabilizationWindow.isNegative()) {
      throw new IllegalArgumentException(
          "replica normalizer: downscaleStabilizationWindow " + downscaleStabilizationWindow + " must be >= 0");
    }
    this.downscaleStabilizationWindow = downscaleStabilizationWindow;
  }

  /** A normalizer with Kubernetes' 5-minute downscale stabilization. */
  public static ReplicaNormalizer withDefaults(Clock clock) {
    return new ReplicaNormalizer(clock, Duration.ofSeconds(HPAScalingRules.DEFAULT_SCALE_DOWN_STABILIZATION_SECONDS));
  }

  /** The replica count to set, with the AbleToScale and ScalingLimited conditions explaining it. */
  public record Normalized(int replicas, HorizontalPodAutoscalerCondition ableToScale,
      HorizontalPodAutoscalerCondition scalingLimited) {}

  /** Upstream's {@code NormalizationArg}: one normalization request with the rules in effect. */
  record NormalizationArg(String key, HPAScalingRules scaleUp, HPAScalingRules scaleDown, int minReplicas,
      int maxReplicas, int currentReplicas, int desiredReplicas) {}

  /** A replica count with the reason and message of the condition that explains it. */
  record Limited(int replicas, String reason, String message) {}

  /** A past unstabilized recommendation. */
  record Recommendation(int recommendation, Instant timestamp) {}

  /**
   * One HPA's past recommendations in slots (an old one's slot is reused, as upstream's list), as numbers: the
   * windows compare timestamps on every sync without reading an object per recommendation.
   */
  private static final class Recommendations {
    int[] value = new int[4];
    long[] second = new long[4];
    int[] nano = new int[4];
    int size;

    /** Sets slot {@code i}, or appends when {@code i} is the size. */
    void set(int i, int v, Instant t) {
      if (i == value.length) {
        value = java.util.Arrays.copyOf(value, i * 2);
        second = java.util.Arrays.copyOf(second, i * 2);
        nano = java.util.Arrays.copyOf(nano, i * 2);
      }
      value[i] = v;
      second[i] = t.getEpochSecond();
      nano[i] = t.getNano();
      if (i == size) {
        size++;
      }
    }

    /** Whether slot {@code i}'s timestamp is before the instant {@code (s, n)}. */
    boolean before(int i, long s, int n) {
      return second[i] < s || (second[i] == s && nano[i] < n);
    }

    Instant timestamp(int i) {
      return Instant.ofEpochSecond(second[i], nano[i]);
    }
  }

  /** A past rescale: how many replicas were added (or removed) and when; outdated slots are reused. */
  record ScaleEvent(int replicaChange, Instant timestamp, boolean outdated) {
    ScaleEvent asOutdated() {
      return new ScaleEvent(replicaChange, timestamp, true);
    }
  }

  /** Records {@code current} as the first recommendation of a new HPA ({@code recordInitialRecommendation}). */
  public synchronized void recordInitialRecommendation(String key, int currentReplicas) {
    if (recommendations.containsKey(key)) { // every sync after the first: no lambda made
      return;
    }
    recommendations.computeIfAbsent(key, k -> {
      Recommendations l = new Recommendations();
      l.set(0, currentReplicas, clock.instant());
      return l;
    });
  }

  /** Forgets the conditions {@link #condition} keeps, so that the next ones are made afresh (for tests). */
  synchronized void forgetConditions() {
    java.util.Arrays.fill(lastConditions, null);
  }

  /** Drops the history of a deleted HPA. */
  public synchronized void forget(String key) {
    recommendations.remove(key);
    scaleUpEvents.remove(key);
    scaleDownEvents.remove(key);
  }

  /**
   * Normalizes {@code prenormalizedDesired} for an HPA: the behavior path when {@code spec.behavior()} is set,
   * the legacy path otherwise.
   */
  public synchronized Normalized normalize(String key, HorizontalPodAutoscalerSpec spec, int currentReplicas,
      int prenormalizedDesired) {
    HorizontalPodAutoscalerBehavior behavior = spec.behavior();
    if (behavior == null) {
      return normalizeDesiredReplicas(key, currentReplicas, prenormalizedDesired, spec.minReplicas(),
          spec.maxReplicas());
    }
    return normalizeDesiredReplicasWithBehaviors(new NormalizationArg(key, behavior.scaleUp(), behavior.scaleDown(),
        spec.minReplicas(), spec.maxReplicas(), currentReplicas, prenormalizedDesired));
  }

  /** The legacy path ({@code normalizeDesiredReplicas}). */
  synchronized Normalized normalizeDesiredReplicas(String key, int currentReplicas, int prenormalizedDesired,
      int minReplicas, int maxReplicas) {
    int stabilized = stabilizeRecommendation(key, prenormalizedDesired);
    HorizontalPodAutoscalerCondition able = stabilized != prenormalizedDesired
        ? condition(HorizontalPodAutoscalerConditionType.AbleToScale, ConditionStatus.True, "ScaleDownStabilized",
            MSG_SCALE_DOWN_STABILIZED)
        : condition(HorizontalPodAutoscalerConditionType.AbleToScale, ConditionStatus.True, "ReadyForNewScale",
            MSG_READY);
    Limited limited = convertDesiredReplicasWithRules(currentReplicas, stabilized, minReplicas, maxReplicas);
    return new Normalized(limited.replicas(), able, limitedCondition(limited, stabilized));
  }

  /** The behavior path ({@code normalizeDesiredReplicasWithBehaviors}). */
  synchronized Normalized normalizeDesiredReplicasWithBehaviors(NormalizationArg arg) {
    Limited stabilized = stabilizeRecommendationWithBehaviors(arg);
    HorizontalPodAutoscalerCondition able = stabilized.replicas() != arg.desiredReplicas()
        ? condition(HorizontalPodAutoscalerConditionType.AbleToScale, ConditionStatus.True, stabilized.reason(),
            stabilized.message())
        : condition(HorizontalPodAutoscalerConditionType.AbleToScale, ConditionStatus.True, "ReadyForNewScale",
            MSG_READY);
    NormalizationArg rated = new NormalizationArg(arg.key(), arg.scaleUp(), arg.scaleDown(), arg.minReplicas(),
        arg.maxReplicas(), arg.currentReplicas(), stabilized.replicas());
    Limited limited = convertDesiredReplicasWithBehaviorRate(rated);
    return new Normalized(limited.replicas(), able, limitedCondition(limited, stabilized.replicas()));
  }

  private HorizontalPodAutoscalerCondition limitedCondition(Limited limited, int before) {
    ConditionStatus status = limited.replicas() == before ? ConditionStatus.False : ConditionStatus.True;
    return condition(HorizontalPodAutoscalerConditionType.ScalingLimited, status, limited.reason(), limited.message());
  }

  /**
   * The condition, the one made last for its type and status when it has the same reason and message (their texts
   * are mostly this class's constants): every sync normalizes, and most give the conditions of the sync before.
   */
  private HorizontalPodAutoscalerCondition condition(HorizontalPodAutoscalerConditionType type,
      ConditionStatus status, String reason, String message) {
    int slot = type.ordinal() * ConditionStatus.values().length + status.ordinal();
    HorizontalPodAutoscalerCondition last = lastConditions[slot];
    if (last != null && last.reason().equals(reason) && last.message().equals(message)) {
      return last;
    }
    HorizontalPodAutoscalerCondition c = HorizontalPodAutoscalerCondition.of(type, status, reason, message);
    lastConditions[slot] = c;
    return c;
  }

  /**
   * Legacy stabilization ({@code stabilizeRecommendation}): the highest recommendation within the downscale window,
   * storing the new one in a slot older than the window when there is one.
   */
  synchronized int stabilizeRecommendation(String key, int prenormalizedDesired) {
    Instant now = clock.instant();
    int max = prenormalizedDesired;
    boolean foundOld = false;
    int oldIndex = 0;
    Instant cutoff = now.minus(downscaleStabilizationWindow);
    Recommendations recs = recommendations.computeIfAbsent(key, k -> new Recommendations());
    long cutoffSecond = cutoff.getEpochSecond();
    int cutoffNano = cutoff.getNano();
    for (int i = 0; i < recs.size; i++) {
      if (recs.before(i, cutoffSecond, cutoffNano)) {
        foundOld = true;
        oldIndex = i;
      } else if (recs.value[i] > max) {
        max = recs.value[i];
      }
    }
    recs.set(foundOld ? oldIndex : recs.size, prenormalizedDesired, now);
    return max;
  }

  /**
   * Stabilization with behaviors ({@code stabilizeRecommendationWithBehaviors}): the current count clamped between
   * the lowest recommendation of the scale-up window and the highest of the scale-down window.
   */
  synchronized Limited stabilizeRecommendationWithBehaviors(NormalizationArg arg) {
    Instant now = clock.instant();
    int upRecommendation = arg.desiredReplicas();
    Instant upCutoff = now.minusSeconds(arg.scaleUp().stabilizationWindowSecondsOr(0));
    int downRecommendation = arg.desiredReplicas();
    Instant downCutoff = now.minusSeconds(
        arg.scaleDown().stabilizationWindowSecondsOr((int) downscaleStabilizationWindow.toSeconds()));
    boolean foundOld = false;
    int oldIndex = 0;
    Recommendations recs = recommendations.computeIfAbsent(arg.key(), k -> new Recommendations());
    for (int i = 0; i < recs.size; i++) {
      Instant t = recs.timestamp(i);
      if (t.isAfter(upCutoff)) {
        upRecommendation = Math.min(recs.value[i], upRecommendation);
      }
      if (t.isAfter(downCutoff)) {
        downRecommendation = Math.max(recs.value[i], downRecommendation);
      }
      if (t.isBefore(upCutoff) && t.isBefore(downCutoff)) {
        foundOld = true;
        oldIndex = i;
      }
    }
    int recommendation = arg.currentReplicas();
    if (recommendation < upRecommendation) {
      recommendation = upRecommendation;
    }
    if (recommendation > downRecommendation) {
      recommendation = downRecommendation;
    }
    recs.set(foundOld ? oldIndex : recs.size, arg.desiredReplicas(), now);
    return arg.desiredReplicas() >= arg.currentReplicas()
        ? new Limited(recommendation, "ScaleUpStabilized", MSG_SCALE_UP_STABILIZED)
        : new Limited(recommendation, "ScaleDownStabilized", MSG_SCALE_DOWN_STABILIZED);
  }

  /** The rate limits of the behavior, then min/max ({@code convertDesiredReplicasWithBehaviorRate}). */
  synchronized Limited convertDesiredReplicasWithBehaviorRate(NormalizationArg arg) {
    Instant now = clock.instant();
    List<ScaleEvent> up = scaleUpEvents.getOrDefault(arg.key(), List.of());
    List<ScaleEvent> down = scaleDownEvents.getOrDefault(arg.key(), List.of());
    if (arg.desiredReplicas() > arg.currentReplicas()) {
      int scaleUpLimit = calculateScaleUpLimitWithScalingRules(arg.currentReplicas(), up, down, arg.scaleUp(), now);
      if (scaleUpLimit < arg.currentReplicas()) {
        // No further scale-up until the recent scale-up events leave the period.
        scaleUpLimit = arg.currentReplicas();
      }
      int maximumAllowed = arg.maxReplicas();
      String reason;
      String message;
      if (maximumAllowed > scaleUpLimit) {
        maximumAllowed = scaleUpLimit;
        reason = "ScaleUpLimit";
        message = MSG_SCALE_UP_LIMIT;
      } else {
        reason = "TooManyReplicas";
        message = MSG_TOO_MANY;
      }
      if (arg.desiredReplicas() > maximumAllowed) {
        return new Limited(maximumAllowed, reason, message);
      }
    } else if (arg.desiredReplicas() < arg.currentReplicas()) {
      int scaleDownLimit =
          calculateScaleDownLimitWithBehaviors(arg.currentReplicas(), up, down, arg.scaleDown(), now);
      if (scaleDownLimit > arg.currentReplicas()) {
        // No further scale-down until the recent scale-down events leave the period.
        scaleDownLimit = arg.currentReplicas();
      }
      int minimumAllowed = arg.minReplicas();
      String reason;
      String message;
      if (minimumAllowed < scaleDownLimit) {
        minimumAllowed = scaleDownLimit;
        reason = "ScaleDownLimit";
        message = MSG_SCALE_DOWN_LIMIT;
      } else {
        reason = "TooFewReplicas";
        message = MSG_TOO_FEW;
      }
      if (arg.desiredReplicas() < minimumAllowed) {
        return new Limited(minimumAllowed, reason, message);
      }
    }
    return new Limited(arg.desiredReplicas(), "DesiredWithinRange", MSG_WITHIN_RANGE);
  }

  /** The legacy limits ({@code convertDesiredReplicasWithRules}): min, then {@code min(max, max(2 * current, 4))}. */
  static Limited convertDesiredReplicasWithRules(int currentReplicas, int desiredReplicas, int minReplicas,
      int maxReplicas) {
    int scaleUpLimit = calculateScaleUpLimit(currentReplicas);
    int maximumAllowed;
    String reason;
    String message;
    if (maxReplicas > scaleUpLimit) {
      maximumAllowed = scaleUpLimit;
      reason = "ScaleUpLimit";
      message = MSG_SCALE_UP_LIMIT;
    } else {
      maximumAllowed = maxReplicas;
      reason = "TooManyReplicas";
      message = MSG_TOO_MANY;
    }
    if (desiredReplicas < minReplicas) {
      return new Limited(minReplicas, "TooFewReplicas", MSG_TOO_FEW);
    } else if (desiredReplicas > maximumAllowed) {
      return new Limited(maximumAllowed, reason, message);
    }
    return new Limited(desiredReplicas, "DesiredWithinRange", MSG_WITHIN_RANGE);
  }

  /** {@code calculateScaleUpLimit}: {@code max(2 * current, 4)}. */
  static int calculateScaleUpLimit(int currentReplicas) {
    return (int) Math.max(SCALE_UP_LIMIT_FACTOR * currentReplicas, SCALE_UP_LIMIT_MINIMUM);
  }

  /**
   * {@code calculateScaleUpLimitWithScalingRules}: per policy, the replicas at the start of its period plus the
   * pods or percent it allows (percent rounded up); Max takes the largest, Min the smallest, Disabled keeps current.
   */
  static int calculateScaleUpLimitWithScalingRules(int currentReplicas, List<ScaleEvent> scaleUpEvents,
      List<ScaleEvent> scaleDownEvents, HPAScalingRules rules, Instant now) {
    if (rules.selectPolicy() == ScalingPolicySelect.Disabled) {
      return currentReplicas;
    }
    boolean minChange = rules.selectPolicy() == ScalingPolicySelect.Min;
    int result = minChange ? Integer.MAX_VALUE : Integer.MIN_VALUE;
    for (HPAScalingPolicy policy : rules.policies()) {
      int added = getReplicasChangePerPeriod(policy.periodSeconds(), scaleUpEvents, now);
      int deleted = getReplicasChangePerPeriod(policy.periodSeconds(), scaleDownEvents, now);
      int periodStart = currentReplicas - added + deleted;
      int proposed = policy.type() == HPAScalingPolicyType.Pods
          ? periodStart + policy.value()
          : ReplicaCalculator.ceil(periodStart * (1 + policy.value() / 100.0));
      result = minChange ? Math.min(result, proposed) : Math.max(result, proposed);
    }
    return result;
  }

  /**
   * {@code calculateScaleDownLimitWithBehaviors}: per policy, the replicas at the start of its period minus the pods
   * or percent it allows (percent truncated); Max takes the smallest result (the largest change), Min the largest.
   */
  static int calculateScaleDownLimitWithBehaviors(int currentReplicas, List<ScaleEvent> scaleUpEvents,
      List<ScaleEvent> scaleDownEvents, HPAScalingRules rules, Instant now) {
    if (rules.selectPolicy() == ScalingPolicySelect.Disabled) {
      return currentReplicas;
    }
    boolean minChange = rules.selectPolicy() == ScalingPolicySelect.Min;
    int result = minChange ? Integer.MIN_VALUE : Integer.MAX_VALUE;
    for (HPAScalingPolicy policy : rules.policies()) {
      int added = getReplicasChangePerPeriod(policy.periodSeconds(), scaleUpEvents, now);
      int deleted = getReplicasChangePerPeriod(policy.periodSeconds(), scaleDownEvents, now);
      int periodStart = currentReplicas - added + deleted;
      int proposed = policy.type() == HPAScalingPolicyType.Pods
          ? periodStart - policy.value()
          : (int) (periodStart * (1 - policy.value() / 100.0));
      result = minChange ? Math.max(result, proposed) : Math.min(result, proposed);
    }
    return result;
  }

  /** {@code getReplicasChangePerPeriod}: the replicas changed by events newer than {@code now - period}. */
  static int getReplicasChangePerPeriod(int periodSeconds, List<ScaleEvent> events, Instant now) {
    Instant cutoff = now.minusSeconds(periodSeconds);
    int replicas = 0;
    for (ScaleEvent e : events) {
      if (e.timestamp().isAfter(cutoff)) {
        replicas += e.replicaChange();
      }
    }
    return replicas;
  }

  /**
   * Remembers a rescale for the rate limits ({@code storeScaleEvent}); nothing without a behavior. Events older than
   * the longest policy period of their direction are marked outdated and their slot is reused.
   */
  public synchronized void storeScaleEvent(@Nullable HorizontalPodAutoscalerBehavior behavior, String key,
      int prevReplicas, int newReplicas) {
    if (behavior == null) {
      return;
    }
    Instant now = clock.instant();
    boolean up = newReplicas > prevReplicas;
    HPAScalingRules rules = up ? behavior.scaleUp() : behavior.scaleDown();
    Map<String, List<ScaleEvent>> store = up ? scaleUpEvents : scaleDownEvents;
    List<ScaleEvent> events = store.computeIfAbsent(key, k -> new ArrayList<>());
    markScaleEventsOutdated(events, rules.longestPolicyPeriodSeconds(), now);
    int change = up ? newReplicas - prevReplicas : prevReplicas - newReplicas;
    boolean foundOld = false;
    int oldIndex = 0;
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).outdated()) {
        foundOld = true;
        oldIndex = i;
      }
    }
    ScaleEvent fresh = new ScaleEvent(change, now, false);
    if (foundOld) {
      events.set(oldIndex, fresh);
    } else {
      events.add(fresh);
    }
  }

  /** {@code markScaleEventsOutdated}: flags the events older than the longest policy period. */
  static void markScaleEventsOutdated(List<ScaleEvent> events, int longestPolicyPeriodSeconds, Instant now) {
    Instant cutoff = now.minusSeconds(longestPolicyPeriodSeconds);
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).timestamp().isBefore(cutoff)) {
        events.set(i, events.get(i).asOutdated());
      }
    }
  }

  // Test hooks: seed and inspect the per-HPA history.

  synchronized void setRecommendations(String key, List<Recommendation> recs) {
    Recommendations l = new Recommendations();
    for (Recommendation r : recs) {
      l.set(l.size, r.recommendation(), r.timestamp());
    }
    recommendations.put(key, l);
  }

  synchronized List<Recommendation> recommendations(String key) {
    Recommendations l = recommendations.get(key);
    List<Recommendation> out = new ArrayList<>();
    for (int i = 0; l != null && i < l.size; i++) {
      out.add(new Recommendation(l.value[i], l.timestamp(i)));
    }
    return List.copyOf(out);
  }

  synchronized void setScaleEvents(String key, List<ScaleEvent> up, List<ScaleEvent> down) {
    scaleUpEvents.put(key, new ArrayList<>(up));
    scaleDownEvents.put(key, new ArrayList<>(down));
  }

  synchronized List<ScaleEvent> scaleUpEvents(String key) {
    return List.copyOf(scaleUpEvents.getOrDefault(key, List.of()));
  }

  synchronized List<ScaleEvent> scaleDownEvents(String key) {
    return List.copyOf(scaleDownEvents.getOrDefault(key, List.of()));
  }
}
