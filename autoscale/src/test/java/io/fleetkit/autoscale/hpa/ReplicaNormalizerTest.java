package io.fleetkit.autoscale.hpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.HPAScalingPolicy;
import io.fleetkit.api.autoscaling.HPAScalingRules;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerBehavior;
import io.fleetkit.api.autoscaling.ScalingPolicySelect;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.autoscale.hpa.ReplicaNormalizer.Limited;
import io.fleetkit.autoscale.hpa.ReplicaNormalizer.NormalizationArg;
import io.fleetkit.autoscale.hpa.ReplicaNormalizer.Normalized;
import io.fleetkit.autoscale.hpa.ReplicaNormalizer.Recommendation;
import io.fleetkit.autoscale.hpa.ReplicaNormalizer.ScaleEvent;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The pure table tests of kubernetes/kubernetes {@code pkg/controller/podautoscaler/horizontal_test.go}
 * ({@code TestNormalizeDesiredReplicas}, {@code TestScalingWithRules}, {@code TestStoreScaleEvents},
 * {@code TestConvertDesiredReplicasWithRules}, {@code TestCalculateScaleUpLimitWithScalingRules},
 * {@code TestCalculateScaleDownLimitWithBehaviors},
 * {@code TestNormalizeDesiredReplicasWithBehavior}) and of karmada-io/karmada's copy of that controller
 * ({@code pkg/controllers/federatedhpa}, "lifted from kubernetes release-1.27 horizontal.go"):
 * {@code TestNormalizeDesiredReplicas} with conditions, {@code TestNormalizeDesiredReplicasWithBehaviors},
 * {@code TestGetReplicasChangePerPeriod}, {@code TestStabilizeRecommendationWithBehaviors},
 * {@code TestConvertDesiredReplicasWithBehaviorRate}, {@code TestConvertDesiredReplicasWithRules},
 * {@code TestCalculateScaleUpLimit}, {@code TestMarkScaleEventsOutdated}, {@code TestGetLongestPolicyPeriod},
 * {@code TestCalculateScaleUpLimitWithScalingRules}, {@code TestCalculateScaleDownLimitWithBehaviors},
 * {@code TestRecordInitialRecommendation}, {@code TestStabilizeRecommendation}, {@code TestStoreScaleEvent}.
 * Upstream's {@code time.Now()} is the fixed {@link #NOW}.
 */
final class ReplicaNormalizerTest {
  static final Instant NOW = ReplicaCalcCase.NOW;
  private static final String KEY = "";

  private static ReplicaNormalizer normalizer() {
    return new ReplicaNormalizer(Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofMinutes(5));
  }

  private static Recommendation rec(int r, Duration ago) {
    return new Recommendation(r, NOW.minus(ago));
  }

  private static Duration min(long m) {
    return Duration.ofMinutes(m);
  }

  /** {@code generateScalingRules}: a Pods and a Percent policy when non-zero, selectPolicy Max. */
  static HPAScalingRules rules(int pods, int podsPeriod, int percent, int percentPeriod, int window) {
    List<HPAScalingPolicy> p = new ArrayList<>();
    if (pods != 0) {
      p.add(HPAScalingPolicy.pods(pods, podsPeriod));
    }
    if (percent != 0) {
      p.add(HPAScalingPolicy.percent(percent, percentPeriod));
    }
    return new HPAScalingRules(window, ScalingPolicySelect.Max, p);
  }

  /** {@code generateEventsUniformDistribution}: events spread over the last {@code period} seconds. */
  static List<ScaleEvent> uniform(int period, int... raw) {
    List<ScaleEvent> events = new ArrayList<>();
    double segment = (double) period / raw.length;
    for (int i = 0; i < raw.length; i++) {
      long boundary = (long) (period - segment * (i + 1) + segment / 2);
      events.add(new ScaleEvent(raw[i], NOW.minusSeconds(boundary), false));
    }
    return events;
  }

  // ---- horizontal_test.go TestNormalizeDesiredReplicas (legacy stabilizeRecommendation) ----

  static Stream<Arguments> legacyStabilization() {
    return Stream.of(
        Arguments.of("empty log", List.of(), 5, 5, 1),
        Arguments.of("stabilize", List.of(rec(4, min(2)), rec(5, min(1))), 3, 5, 3),
        Arguments.of("no stabilize", List.of(rec(1, min(2)), rec(2, min(1))), 3, 3, 3),
        Arguments.of("no stabilize - old recommendations", List.of(rec(10, min(10)), rec(9, min(9))), 3, 3, 2),
        Arguments.of("stabilize - old recommendations",
            List.of(rec(10, min(10)), rec(4, min(1)), rec(5, min(2)), rec(9, min(9))), 3, 5, 4));
  }

  @ParameterizedTest(name = "{0}") // horizontal_test.go TestNormalizeDesiredReplicas
  @MethodSource("legacyStabilization")
  void stabilizeRecommendation_upstreamTable_highestInWindow(String name, List<Recommendation> recs, int desired,
      int expected, int logLength) {
    ReplicaNormalizer n = normalizer();
    n.setRecommendations(KEY, recs);
    assertThat(n.stabilizeRecommendation(KEY, desired)).isEqualTo(expected);
    assertThat(n.recommendations(KEY)).hasSize(logLength);
  }

  // ---- horizontal_test.go TestScalingWithRules ----

  static Stream<Arguments> scalingWithRules() {
    List<ScaleEvent> none = List.of();
    return Stream.of(
        Arguments.of("prenormalized desired replicas within range", none, none, 3, 8, null, null, 5, 7, 7,
            "DesiredWithinRange"),
        Arguments.of("prenormalized desired replicas < minReplicas", none, none, 2, 8, null, null, 3, 1, 2,
            "TooFewReplicas"),
        Arguments.of("prenormalized desired replicas within range when minReplicas is 0", none, none, 0, 10, null,
            null, 1, 0, 0, "DesiredWithinRange"),
        Arguments.of("maxReplicas is the limit because maxReplicas < scaleUpLimit", none, none, 1, 10, null, null,
            20, 1000, 10, "TooManyReplicas"),
        Arguments.of("desired replica count is more than the maximum replica count", none, none, 100, 150, null,
            null, 100, 1000, 150, "TooManyReplicas"),
        Arguments.of("scaleUpLimit is the limit because scaleUpLimit < maxReplicas with user policies", none, none,
            1, 2000, rules(0, 0, 1, 60, 0), null, 3, 1000, 4, "ScaleUpLimit"),
        Arguments.of("scaleDownLimit is the limit because scaleDownLimit > minReplicas with user defined policies",
            none, none, 3, 2000, null, rules(20, 60, 0, 0, 0), 1000, 3, 980, "ScaleDownLimit"),
        Arguments.of("scaleUp with default behavior", none, none, 1, 1000, null, null, 10, 50, 20, "ScaleUpLimit"),
        Arguments.of("scaleUp with pods policy larger than percent policy", none, none, 1, 1000,
            rules(100, 60, 100, 60, 0), null, 10, 500, 110, "ScaleUpLimit"),
        Arguments.of("scaleUp with percent policy larger than pods policy", none, none, 1, 1000,
            rules(2, 60, 100, 60, 0), null, 10, 500, 20, "ScaleUpLimit"),
        Arguments.of("scaleUp with spec MaxReplicas limitation with large pod policy", none, none, 1, 1000,
            rules(100, 60, 0, 0, 0), null, 10, 50, 50, "DesiredWithinRange"),
        Arguments.of("scaleUp with spec MaxReplicas limitation with large percent policy", none, none, 1, 1000,
            rules(10000, 60, 0, 0, 0), null, 10, 50, 50, "DesiredWithinRange"),
        Arguments.of("scaleUp with pod policy limitation", none, none, 1, 1000, rules(30, 60, 0, 0, 0), null, 10,
            50, 40, "ScaleUpLimit"),
        Arguments.of("scaleUp with percent policy limitation", none, none, 1, 1000, rules(0, 0, 200, 60, 0), null,
            10, 50, 30, "ScaleUpLimit"),
        Arguments.of("scaleDown with percent policy larger than pod policy", none, none, 1, 1000, null,
            rules(20, 60, 1, 60, 300), 100, 2, 80, "ScaleDownLimit"),
        Arguments.of("scaleDown with pod policy larger than percent policy", none, none, 1, 1000, null,
            rules(2, 60, 1, 60, 300), 100, 2, 98, "ScaleDownLimit"),
        Arguments.of("scaleDown with spec MinReplicas=nil limitation with large pod policy", none, none, 1, 1000,
            null, rules(100, 60, 0, 0, 300), 10, 0, 1, "TooFewReplicas"),
        Arguments.of("scaleDown with spec MinReplicas limitation with large pod policy", none, none, 1, 1000, null,
            rules(100, 60, 0, 0, 300), 10, 0, 1, "TooFewReplicas"),
        Arguments.of("scaleDown with spec MinReplicas limitation with large percent policy", none, none, 5, 1000,
            null, rules(0, 0, 100, 60, 300), 10, 2, 5, "TooFewReplicas"),
        Arguments.of("scaleDown with pod policy limitation", none, none, 1, 1000, null, rules(5, 60, 0, 0, 300), 10,
            2, 5, "ScaleDownLimit"),
        Arguments.of("scaleDown with percent policy limitation", none, none, 1, 1000, null,
            rules(0, 0, 50, 60, 300), 10, 5, 5, "DesiredWithinRange"),
        Arguments.of("scaleUp with spec MaxReplicas limitation with large pod policy and events",
            uniform(120, 1, 5, 9), none, 1, 200, rules(300, 60, 0, 0, 0), null, 100, 500, 200, "TooManyReplicas"),
        Arguments.of("scaleUp with spec MaxReplicas limitation with large percent policy and events",
            uniform(120, 1, 5, 9), none, 1, 200, rules(0, 0, 10000, 60, 0), null, 100, 500, 200,
            "TooManyReplicas"),
        Arguments.of("scaleUp with currentReplicas limitation with rate.PeriodSeconds with a lot of recent scale up"
            + " events", uniform(120, 1, 5, 9), none, 1, 1000, rules(5, 120, 0, 0, 0), null, 100, 500, 100,
            "ScaleUpLimit"),
        Arguments.of("scaleUp with pod policy and previous scale up events", uniform(120, 1, 5, 9), none, 1, 1000,
            rules(150, 120, 0, 0, 0), null, 100, 500, 235, "ScaleUpLimit"),
        Arguments.of("scaleUp with percent policy and previous scale up events", uniform(120, 1, 5, 9), none, 1,
            1000, rules(0, 0, 200, 120, 0), null, 100, 500, 255, "ScaleUpLimit"),
        Arguments.of("scaleUp with percent policy and previous scale up and down events", uniform(120, 4),
            uniform(120, 2), 1, 1000, rules(0, 0, 300, 300, 0), null, 6, 24, 16, "ScaleUpLimit"),
        Arguments.of("scaleDown with default policy and previous events", none, uniform(120, 1, 5, 9), 1, 1000, null,
            null, 10, 5, 5, "DesiredWithinRange"),
        Arguments.of("scaleDown with spec MinReplicas=nil limitation with large pod policy and previous events",
            none, uniform(120, 1, 5, 9), 1, 1000, null, rules(115, 120, 0, 0, 300), 100, 0, 1, "TooFewReplicas"),
        Arguments.of("scaleDown with spec MinReplicas limitation with large pod policy and previous events", none,
            uniform(120, 1, 5, 9), 5, 1000, null, rules(130, 120, 0, 0, 300), 100, 0, 5, "TooFewReplicas"),
        Arguments.of("scaleDown with spec MinReplicas limitation with large percent policy and previous events",
            none, uniform(120, 1, 5, 9), 5, 1000, null, rules(0, 0, 100, 120, 300), 100, 2, 5, "TooFewReplicas"),
        Arguments.of("scaleDown with pod policy limitation and previous events", none, uniform(120, 1, 5, 9), 1, 1000,
            null, rules(5, 120, 0, 0, 300), 100, 2, 100, "ScaleDownLimit"),
        Arguments.of("scaleDown with percent policy limitation and previous events", none, uniform(120, 2, 4, 6), 1,
            1000, null, rules(0, 0, 50, 120, 300), 100, 0, 56, "ScaleDownLimit"),
        Arguments.of("scaleDown with percent policy and previous scale up and down events", uniform(120, 2),
            uniform(120, 4), 1, 1000, null, rules(0, 0, 50, 180, 0), 10, 1, 6, "ScaleDownLimit"),
        Arguments.of("scaleDown with previous events preventing further scale down", none,
            uniform(120, 10, 10, 10), 1, 1000, null, rules(0, 0, 10, 120, 300), 100, 0, 100, "ScaleDownLimit"),
        Arguments.of("scaleDown with with previous events still allowing more scale down", none,
            uniform(120, 10, 10, 10), 1, 1000, null, rules(0, 0, 1000, 120, 300), 10, 5, 5, "DesiredWithinRange"),
        Arguments.of("check 'outdated' flag for events for one behavior for up", uniform(120, 8, 12, 9, 11), none, 1,
            1000, rules(1000, 60, 0, 0, 0), null, 100, 200, 200, "DesiredWithinRange"),
        Arguments.of("check that events were not marked 'outdated' for two different policies in the behavior for"
            + " up", uniform(120, 8, 12, 9, 11), none, 1, 1000, rules(1000, 120, 100, 60, 0), null, 100, 200, 200,
            "DesiredWithinRange"),
        Arguments.of("check that events were marked 'outdated' for two different policies in the behavior for up",
            uniform(120, 8, 12, 9, 11), none, 1, 1000, rules(1000, 30, 100, 60, 0), null, 100, 200, 200,
            "DesiredWithinRange"),
        Arguments.of("check 'outdated' flag for events for one behavior for down", none, uniform(120, 8, 12, 9, 11),
            1, 1000, null, rules(1000, 60, 0, 0, 300), 100, 5, 5, "DesiredWithinRange"),
        Arguments.of("check that events were not marked 'outdated' for two different policies in the behavior for"
            + " down", none, uniform(120, 8, 12, 9, 11), 1, 1000, null, rules(1000, 120, 100, 60, 300), 100, 5, 5,
            "DesiredWithinRange"),
        Arguments.of("check that events were marked 'outdated' for two different policies in the behavior for"
            + " down", none, uniform(120, 8, 12, 9, 11), 1, 1000, null, rules(1000, 30, 100, 60, 300), 100, 5, 5,
            "DesiredWithinRange"));
  }

  @ParameterizedTest(name = "{0}") // horizontal_test.go TestScalingWithRules
  @MethodSource("scalingWithRules")
  void convertDesiredReplicasWithBehaviorRate_upstreamTable_limitsAsUpstream(String name, List<ScaleEvent> up,
      List<ScaleEvent> down, int minReplicas, int maxReplicas, @Nullable HPAScalingRules upRules,
      @Nullable HPAScalingRules downRules, int current, int desired, int expected, String condition) {
    ReplicaNormalizer n = normalizer();
    n.setScaleEvents(KEY, up, down);
    HorizontalPodAutoscalerBehavior b = HorizontalPodAutoscalerBehavior.of(upRules, downRules);
    Limited l = n.convertDesiredReplicasWithBehaviorRate(
        new NormalizationArg(KEY, b.scaleUp(), b.scaleDown(), minReplicas, maxReplicas, current, desired));
    assertThat(l.replicas()).isEqualTo(expected);
    assertThat(l.reason()).isEqualTo(condition);
  }

  // ---- horizontal_test.go TestStoreScaleEvents ----

  private static ScaleEvent ev(int change, long secondsAgo, boolean outdated) {
    return new ScaleEvent(change, NOW.minusSeconds(secondsAgo), outdated);
  }

  static Stream<Arguments> storeScaleEvents() {
    return Stream.of(
        Arguments.of("empty entries with default behavior", List.of(), List.of(), null, 0),
        Arguments.of("empty entries with two-policy-behavior", List.of(), List.of(ev(5, 0, false)),
            rules(10, 60, 100, 60, 0), 0),
        Arguments.of("one outdated entry to be kept untouched without behavior", List.of(ev(7, 61, false)),
            List.of(ev(7, 0, false)), null, 0),
        Arguments.of("one outdated entry to be replaced with behavior", List.of(ev(7, 61, false)),
            List.of(ev(5, 0, false)), rules(10, 60, 100, 60, 0), 0),
        Arguments.of("one actual entry to be not touched with behavior", List.of(ev(7, 58, false)),
            List.of(ev(7, 0, false), ev(5, 0, false)), rules(10, 60, 100, 60, 0), 7),
        Arguments.of("two entries, one of them to be replaced", List.of(ev(7, 61, false), ev(6, 59, false)),
            List.of(ev(5, 0, false), ev(6, 0, false)), rules(10, 60, 0, 0, 0), 6),
        Arguments.of("replace one entry, use policies with different periods",
            List.of(ev(8, 29, false), ev(6, 59, false), ev(7, 61, false), ev(9, 61, false)),
            List.of(ev(8, 0, false), ev(6, 0, false), ev(7, 0, true), ev(5, 0, false)), rules(10, 60, 100, 30, 0),
            14),
        Arguments.of("two entries, both actual", List.of(ev(7, 58, false), ev(6, 59, false)),
            List.of(ev(7, 0, false), ev(6, 0, false), ev(5, 0, false)), rules(10, 120, 100, 30, 0), 13));
  }

  @ParameterizedTest(name = "{0}") // horizontal_test.go TestStoreScaleEvents
  @MethodSource("storeScaleEvents")
  void storeScaleEvent_upstreamTable_reusesOutdatedSlots(String name, List<ScaleEvent> prev,
      List<ScaleEvent> expected, @Nullable HPAScalingRules rules, int expectedChange) {
    for (boolean up : new boolean[] {true, false}) {
      ReplicaNormalizer n = normalizer();
      n.setScaleEvents(KEY, up ? prev : List.of(), up ? List.of() : prev);
      assertThat(ReplicaNormalizer.getReplicasChangePerPeriod(60, prev, NOW)).isEqualTo(expectedChange);
      HorizontalPodAutoscalerBehavior behavior = rules == null ? null
          : up ? HorizontalPodAutoscalerBehavior.of(rules, null) : HorizontalPodAutoscalerBehavior.of(null, rules);
      n.storeScaleEvent(behavior, KEY, 10, up ? 15 : 5);
      List<ScaleEvent> got = up ? n.scaleUpEvents(KEY) : n.scaleDownEvents(KEY);
      assertThat(got).hasSize(expected.size());
      for (int i = 0; i < got.size(); i++) {
        assertThat(got.get(i).replicaChange()).as("change %s", i).isEqualTo(expected.get(i).replicaChange());
        assertThat(got.get(i).outdated()).as("outdated %s", i).isEqualTo(expected.get(i).outdated());
      }
    }
  }

  // ---- horizontal_test.go TestNormalizeDesiredReplicasWithBehavior (stabilizeRecommendationWithBehaviors) ----

  static Stream<Arguments> behaviorStabilization() {
    return Stream.of(
        Arguments.of("empty recommendations for scaling down", List.of(), 100, 5, 5, List.of(5), 0, 0),
        Arguments.of("simple scale down stabilization", List.of(rec(4, min(2)), rec(5, min(1))), 100, 3, 5,
            List.of(4, 5, 3), 0, 180),
        Arguments.of("simple scale up stabilization", List.of(rec(4, min(2)), rec(5, min(1))), 1, 7, 4,
            List.of(4, 5, 7), 300, 0),
        Arguments.of("no scale down stabilization", List.of(rec(1, min(2)), rec(2, min(1))), 100, 3, 3,
            List.of(1, 2, 3), 300, 0),
        Arguments.of("no scale up stabilization", List.of(rec(4, min(2)), rec(5, min(1))), 1, 3, 3,
            List.of(4, 5, 3), 0, 300),
        Arguments.of("no scale down stabilization, reuse recommendation element",
            List.of(rec(10, min(10)), rec(9, min(9))), 100, 3, 3, List.of(10, 3), 0, 0),
        Arguments.of("no scale up stabilization, reuse recommendation element",
            List.of(rec(10, min(10)), rec(9, min(9))), 1, 100, 100, List.of(10, 100), 0, 0),
        Arguments.of("scale down stabilization, reuse one of obsolete recommendation element",
            List.of(rec(10, min(10)), rec(4, min(1)), rec(5, min(2)), rec(9, min(9))), 100, 3, 5,
            List.of(10, 4, 5, 3), 0, 180),
        Arguments.of("scale up stabilization, reuse one of obsolete recommendation element",
            List.of(rec(10, min(100)), rec(6, min(1)), rec(5, min(2)), rec(9, min(3))), 1, 100, 5,
            List.of(100, 6, 5, 9), 300, 0),
        Arguments.of("scale up and down stabilization, do not scale up when prenormalized rec goes down",
            List.of(rec(2, min(100)), rec(3, min(3))), 2, 1, 2, null, 300, 300),
        Arguments.of("scale up and down stabilization, do not scale down when prenormalized rec goes up",
            List.of(rec(2, min(100)), rec(1, min(3))), 2, 3, 2, null, 300, 300));
  }

  @ParameterizedTest(name = "{0}") // horizontal_test.go TestNormalizeDesiredReplicasWithBehavior
  @MethodSource("behaviorStabilization")
  void stabilizeRecommendationWithBehaviors_upstreamTable_clampsToWindows(String name, List<Recommendation> recs,
      int current, int desired, int expected, @Nullable List<Integer> stored, int upWindow, int downWindow) {
    ReplicaNormalizer n = normalizer();
    n.setRecommendations(KEY, recs);
    NormalizationArg arg = new NormalizationArg(KEY, rules(0, 0, 0, 0, upWindow), rules(0, 0, 0, 0, downWindow),
        1, 1000, current, desired);
    assertThat(n.stabilizeRecommendationWithBehaviors(arg).replicas()).isEqualTo(expected);
    if (stored != null) {
      assertThat(n.recommendations(KEY)).extracting(Recommendation::recommendation).isEqualTo(stored);
    }
  }

  // ---- horizontal_test.go TestConvertDesiredReplicasWithRules ----

  static Stream<Arguments> convertWithRules() {
    return Stream.of(
        Arguments.of("prenormalized desired replicas within range", 5, 7, 3, 8, 7, "DesiredWithinRange"),
        Arguments.of("prenormalized desired replicas < minReplicas", 3, 1, 2, 8, 2, "TooFewReplicas"),
        Arguments.of("prenormalized desired zeroed replicas within range", 1, 0, 0, 10, 0, "DesiredWithinRange"),
        Arguments.of("maxReplicas is the limit because maxReplicas < scaleUpLimit", 20, 1000, 1, 10, 10,
            "TooManyReplicas"),
        Arguments.of("scaleUpLimit is the limit because scaleUpLimit < maxReplicas", 3, 1000, 1, 2000,
            ReplicaNormalizer.calculateScaleUpLimit(3), "ScaleUpLimit"));
  }

  @ParameterizedTest(name = "{0}") // horizontal_test.go TestConvertDesiredReplicasWithRules
  @MethodSource("convertWithRules")
  void convertDesiredReplicasWithRules_upstreamTable(String name, int current, int desired, int min, int max,
      int expected, String reason) {
    Limited l = ReplicaNormalizer.convertDesiredReplicasWithRules(current, desired, min, max);
    assertThat(l.replicas()).isEqualTo(expected);
    assertThat(l.reason()).isEqualTo(reason);
  }

  /** {@code Pods 2/60s} and {@code Percent 50/60s}, selectPolicy Min, a 300 s window. */
  private static HPAScalingRules minChangeTwoPodsOrHalf() {
    return new HPAScalingRules(300, ScalingPolicySelect.Min,
        List.of(HPAScalingPolicy.pods(2, 60), HPAScalingPolicy.percent(50, 60)));
  }

  @Test // horizontal_test.go TestCalculateScaleUpLimitWithScalingRules
  void calculateScaleUpLimitWithScalingRules_minChange_upstream() {
    assertThat(ReplicaNormalizer.calculateScaleUpLimitWithScalingRules(1, List.of(), List.of(),
        minChangeTwoPodsOrHalf(), NOW)).isEqualTo(2);
  }

  @Test // horizontal_test.go TestCalculateScaleDownLimitWithBehaviors
  void calculateScaleDownLimitWithBehaviors_minChange_upstream() {
    assertThat(ReplicaNormalizer.calculateScaleDownLimitWithBehaviors(5, List.of(), List.of(),
        minChangeTwoPodsOrHalf(), NOW)).isEqualTo(3);
  }

  // ---- karmada federatedhpa (lifted horizontal.go) tables ----

  static Stream<Arguments> karmadaLegacyNormalize() {
    return Stream.of(
        Arguments.of("scale up within limits", 2, 4, 1, 10, List.of(rec(4, Duration.ZERO)), 4, "ReadyForNewScale",
            ConditionStatus.False, "DesiredWithinRange"),
        Arguments.of("scale down stabilized", 5, 3, 1, 10, List.of(rec(4, min(1)), rec(3, Duration.ZERO)), 4,
            "ScaleDownStabilized", ConditionStatus.False, "DesiredWithinRange"),
        Arguments.of("at min replicas", 2, 1, 2, 10, List.of(rec(1, Duration.ZERO)), 2, "ReadyForNewScale",
            ConditionStatus.True, "TooFewReplicas"),
        Arguments.of("at max replicas", 10, 12, 1, 10, List.of(rec(12, Duration.ZERO)), 10, "ReadyForNewScale",
            ConditionStatus.True, "TooManyReplicas"));
  }

  @ParameterizedTest(name = "{0}") // karmada TestNormalizeDesiredReplicas
  @MethodSource("karmadaLegacyNormalize")
  void normalizeDesiredReplicas_karmadaTable_conditionsAsUpstream(String name, int current, int desired,
      int minReplicas, int maxReplicas, List<Recommendation> recs, int expected, String ableReason,
      ConditionStatus limitedStatus, String limitedReason) {
    ReplicaNormalizer n = normalizer();
    n.setRecommendations(KEY, recs);
    Normalized out = n.normalizeDesiredReplicas(KEY, current, desired, minReplicas, maxReplicas);
    assertThat(out.replicas()).isEqualTo(expected);
    assertThat(out.ableToScale().status()).isEqualTo(ConditionStatus.True);
    assertThat(out.ableToScale().reason()).isEqualTo(ableReason);
    assertThat(out.scalingLimited().status()).isEqualTo(limitedStatus);
    assertThat(out.scalingLimited().reason()).isEqualTo(limitedReason);
  }

  @Test // karmada TestRecordInitialRecommendation "New recommendation"
  void recordInitialRecommendation_karmada_newKeyRecordsCurrent() {
    ReplicaNormalizer n = normalizer();
    n.recordInitialRecommendation("test-hpa-1", 3);
    assertThat(n.recommendations("test-hpa-1")).containsExactly(new Recommendation(3, NOW));
  }

  @Test // karmada TestRecordInitialRecommendation "Existing recommendations"
  void recordInitialRecommendation_karmada_existingKeyUntouched() {
    ReplicaNormalizer n = normalizer();
    n.setRecommendations("test-hpa-2", List.of(rec(3, min(1))));
    n.recordInitialRecommendation("test-hpa-2", 5);
    assertThat(n.recommendations("test-hpa-2")).containsExactly(rec(3, min(1)));
  }

  static Stream<Arguments> karmadaStabilize() {
    return Stream.of(
        Arguments.of("No previous recommendations", List.of(), 5, 5, 1),
        Arguments.of("With previous recommendations within window",
            List.of(rec(3, Duration.ofSeconds(30)), rec(4, Duration.ofSeconds(45))), 2, 4, 3),
        Arguments.of("With old recommendation outside window",
            List.of(rec(7, min(2)), rec(4, Duration.ofSeconds(45))), 5, 5, 2),
        Arguments.of("All recommendations outside window", List.of(rec(7, min(2)), rec(8, min(3))), 3, 3, 2));
  }

  @ParameterizedTest(name = "{0}") // karmada TestStabilizeRecommendation (a 1-minute downscale window)
  @MethodSource("karmadaStabilize")
  void stabilizeRecommendation_karmadaTable(String name, List<Recommendation> recs, int desired, int expected,
      int stored) {
    ReplicaNormalizer n = new ReplicaNormalizer(Clock.fixed(NOW, ZoneOffset.UTC), min(1));
    n.setRecommendations(KEY, recs);
    assertThat(n.stabilizeRecommendation(KEY, desired)).isEqualTo(expected);
    List<Recommendation> after = n.recommendations(KEY);
    assertThat(after).hasSize(stored);
    assertThat(after).extracting(Recommendation::recommendation).contains(desired);
    assertThat(after).filteredOn(r -> r.timestamp().isBefore(NOW.minus(min(1)))).hasSizeLessThanOrEqualTo(1);
  }

  static Stream<Arguments> karmadaStoreScaleEvent() {
    HPAScalingRules window60 = new HPAScalingRules(60, ScalingPolicySelect.Max, List.of());
    return Stream.of(
        Arguments.of("Scale up event", HorizontalPodAutoscalerBehavior.of(window60, null), 5, 10, 1, 0),
        Arguments.of("Scale down event", HorizontalPodAutoscalerBehavior.of(null, window60), 10, 5, 0, 1),
        Arguments.of("Nil behavior", null, 5, 5, 0, 0));
  }

  @ParameterizedTest(name = "{0}") // karmada TestStoreScaleEvent
  @MethodSource("karmadaStoreScaleEvent")
  void storeScaleEvent_karmadaTable(String name, @Nullable HorizontalPodAutoscalerBehavior behavior, int prev,
      int next, int expectedUp, int expectedDown) {
    ReplicaNormalizer n = normalizer();
    n.storeScaleEvent(behavior, "test-hpa", prev, next);
    assertThat(n.scaleUpEvents("test-hpa")).hasSize(expectedUp);
    assertThat(n.scaleDownEvents("test-hpa")).hasSize(expectedDown);
  }

  @Test // karmada TestNormalizeDesiredReplicasWithBehaviors "Scale up with behavior"
  void normalizeWithBehaviors_percentPolicy_cappedByMax() {
    Normalized out = normalizer().normalizeDesiredReplicasWithBehaviors(new NormalizationArg("test-hpa",
        new HPAScalingRules(300, ScalingPolicySelect.Max, List.of(HPAScalingPolicy.percent(200, 60))),
        new HPAScalingRules(300, ScalingPolicySelect.Max, List.of(HPAScalingPolicy.percent(100, 60))), 1, 10, 5,
        15));
    assertThat(out.replicas()).isEqualTo(10);
  }

  @Test // karmada TestNormalizeDesiredReplicasWithBehaviors "Scale down with behavior"
  void normalizeWithBehaviors_percentPolicy_limitsScaleDown() {
    Normalized out = normalizer().normalizeDesiredReplicasWithBehaviors(new NormalizationArg("test-hpa",
        new HPAScalingRules(300, ScalingPolicySelect.Max, List.of(HPAScalingPolicy.percent(200, 60))),
        new HPAScalingRules(300, ScalingPolicySelect.Max, List.of(HPAScalingPolicy.percent(50, 60))), 1, 10, 8, 2));
    assertThat(out.replicas()).isEqualTo(4);
  }

  @Test // karmada TestGetReplicasChangePerPeriod (3 cases)
  void getReplicasChangePerPeriod_karmadaTable_sumsEventsInPeriod() {
    assertThat(ReplicaNormalizer.getReplicasChangePerPeriod(60, List.of(), NOW)).isZero();
    assertThat(ReplicaNormalizer.getReplicasChangePerPeriod(60, List.of(ev(3, 30, false)), NOW)).isEqualTo(3);
    assertThat(ReplicaNormalizer.getReplicasChangePerPeriod(60,
        List.of(ev(3, 30, false), ev(2, 45, false), ev(1, 70, false)), NOW)).isEqualTo(5);
  }

  static Stream<Arguments> karmadaStabilizeWithBehaviors() {
    return Stream.of(
        Arguments.of("Scale up stabilized", 10, 5, List.of(rec(8, min(2)), rec(7, min(4))), 7, "ScaleUpStabilized"),
        Arguments.of("Scale down stabilized", 3, 8, List.of(rec(5, min(5)), rec(4, min(8))), 5,
            "ScaleDownStabilized"),
        Arguments.of("No change needed", 5, 5, List.of(rec(5, min(1))), 5, "ScaleUpStabilized"));
  }

  @ParameterizedTest(name = "{0}") // karmada TestStabilizeRecommendationWithBehaviors
  @MethodSource("karmadaStabilizeWithBehaviors")
  void stabilizeWithBehaviors_karmadaTable_reasonAndStorage(String name, int desired, int current,
      List<Recommendation> recs, int expected, String reason) {
    ReplicaNormalizer n = normalizer();
    n.setRecommendations(KEY, recs);
    Limited l = n.stabilizeRecommendationWithBehaviors(new NormalizationArg(KEY, rules(0, 0, 0, 0, 300),
        rules(0, 0, 0, 0, 600), 1, 100, current, desired));
    assertThat(l.replicas()).isEqualTo(expected);
    assertThat(l.reason()).isEqualTo(reason);
    assertThat(n.recommendations(KEY)).hasSize(recs.size() + 1)
        .extracting(Recommendation::recommendation).contains(desired);
  }

  @Test // karmada TestConvertDesiredReplicasWithBehaviorRate (3 cases)
  void convertWithBehaviorRate_karmadaTable_reasons() {
    ReplicaNormalizer n = normalizer();
    HPAScalingRules up = new HPAScalingRules(0, ScalingPolicySelect.Max, List.of(HPAScalingPolicy.percent(200, 60)));
    HPAScalingRules down =
        new HPAScalingRules(null, ScalingPolicySelect.Max, List.of(HPAScalingPolicy.percent(100, 60)));
    Limited l1 = n.convertDesiredReplicasWithBehaviorRate(new NormalizationArg(KEY, up, down, 1, 10, 5, 8));
    assertThat(l1).isEqualTo(new Limited(8, "DesiredWithinRange", ReplicaNormalizer.MSG_WITHIN_RANGE));
    Limited l2 = n.convertDesiredReplicasWithBehaviorRate(new NormalizationArg(KEY, up, down, 1, 10, 5, 3));
    assertThat(l2).isEqualTo(new Limited(3, "DesiredWithinRange", ReplicaNormalizer.MSG_WITHIN_RANGE));
    Limited l3 = n.convertDesiredReplicasWithBehaviorRate(new NormalizationArg(KEY, up, down, 1, 10, 8, 12));
    assertThat(l3).isEqualTo(new Limited(10, "TooManyReplicas", ReplicaNormalizer.MSG_TOO_MANY));
  }

  @Test // karmada TestConvertDesiredReplicasWithRules (3 cases)
  void convertDesiredReplicasWithRules_karmadaTable_limits() {
    assertThat(ReplicaNormalizer.convertDesiredReplicasWithRules(5, 7, 3, 10))
        .isEqualTo(new Limited(7, "DesiredWithinRange", ReplicaNormalizer.MSG_WITHIN_RANGE));
    assertThat(ReplicaNormalizer.convertDesiredReplicasWithRules(5, 2, 3, 10))
        .isEqualTo(new Limited(3, "TooFewReplicas", ReplicaNormalizer.MSG_TOO_FEW));
    assertThat(ReplicaNormalizer.convertDesiredReplicasWithRules(5, 15, 3, 10))
        .isEqualTo(new Limited(10, "TooManyReplicas", ReplicaNormalizer.MSG_TOO_MANY));
  }

  @Test // karmada TestCalculateScaleUpLimit (4 cases)
  void calculateScaleUpLimit_karmadaTable_doubleOrFour() {
    assertThat(ReplicaNormalizer.calculateScaleUpLimit(1)).isEqualTo(4);
    assertThat(ReplicaNormalizer.calculateScaleUpLimit(10)).isEqualTo(20);
    assertThat(ReplicaNormalizer.calculateScaleUpLimit(100)).isEqualTo(200);
    assertThat(ReplicaNormalizer.calculateScaleUpLimit(0)).isEqualTo(4);
  }

  @Test // karmada TestMarkScaleEventsOutdated (2 cases)
  void markScaleEventsOutdated_karmadaTable_flagsOld() {
    List<ScaleEvent> a = new ArrayList<>(List.of(ev(0, 30, false), ev(0, 60, false)));
    ReplicaNormalizer.markScaleEventsOutdated(a, 120, NOW);
    assertThat(a).extracting(ScaleEvent::outdated).containsExactly(false, false);
    List<ScaleEvent> b = new ArrayList<>(List.of(ev(0, 30, false), ev(0, 90, false), ev(0, 150, false)));
    ReplicaNormalizer.markScaleEventsOutdated(b, 120, NOW);
    assertThat(b).extracting(ScaleEvent::outdated).containsExactly(false, false, true);
  }

  @Test // karmada TestGetLongestPolicyPeriod (3 cases)
  void longestPolicyPeriod_karmadaTable_max() {
    assertThat(new HPAScalingRules(0, ScalingPolicySelect.Max, List.of(HPAScalingPolicy.pods(1, 60)))
        .longestPolicyPeriodSeconds()).isEqualTo(60);
    assertThat(new HPAScalingRules(0, ScalingPolicySelect.Max, List.of(HPAScalingPolicy.pods(1, 60),
        HPAScalingPolicy.pods(1, 120), HPAScalingPolicy.pods(1, 30))).longestPolicyPeriodSeconds()).isEqualTo(120);
    assertThat(new HPAScalingRules(0, ScalingPolicySelect.Max, List.of()).longestPolicyPeriodSeconds()).isZero();
  }

  static Stream<Arguments> karmadaScaleUpLimit() {
    return Stream.of(
        Arguments.of("No previous events", 5, List.of(), ScalingPolicySelect.Max,
            List.of(HPAScalingPolicy.pods(4, 60)), 9),
        Arguments.of("With previous scale up event", 5, List.of(ev(2, 30, false)), ScalingPolicySelect.Max,
            List.of(HPAScalingPolicy.pods(4, 60)), 7),
        Arguments.of("Disabled policy", 5, List.of(), ScalingPolicySelect.Disabled,
            List.of(HPAScalingPolicy.pods(4, 60)), 5),
        Arguments.of("MinChange policy", 5, List.of(), ScalingPolicySelect.Min,
            List.of(HPAScalingPolicy.pods(4, 60), HPAScalingPolicy.pods(2, 60)), 7),
        Arguments.of("Percent scaling policy", 10, List.of(), ScalingPolicySelect.Max,
            List.of(HPAScalingPolicy.percent(50, 60)), 15));
  }

  @ParameterizedTest(name = "{0}") // karmada TestCalculateScaleUpLimitWithScalingRules
  @MethodSource("karmadaScaleUpLimit")
  void calculateScaleUpLimitWithScalingRules_karmadaTable(String name, int current, List<ScaleEvent> up,
      ScalingPolicySelect select, List<HPAScalingPolicy> policies, int expected) {
    assertThat(ReplicaNormalizer.calculateScaleUpLimitWithScalingRules(current, up, List.of(),
        new HPAScalingRules(0, select, policies), NOW)).isEqualTo(expected);
  }

  static Stream<Arguments> karmadaScaleDownLimit() {
    return Stream.of(
        Arguments.of("No previous events", 10, List.of(), ScalingPolicySelect.Max,
            List.of(HPAScalingPolicy.percent(20, 60)), 8),
        Arguments.of("With previous scale down event", 10, List.of(ev(1, 30, false)), ScalingPolicySelect.Max,
            List.of(HPAScalingPolicy.percent(20, 60)), 8),
        Arguments.of("Multiple policies", 100, List.of(), ScalingPolicySelect.Max,
            List.of(HPAScalingPolicy.percent(10, 60), HPAScalingPolicy.pods(5, 60)), 90),
        Arguments.of("Disabled policy", 10, List.of(), ScalingPolicySelect.Disabled,
            List.of(HPAScalingPolicy.percent(20, 60)), 10),
        Arguments.of("MinChange policy", 100, List.of(), ScalingPolicySelect.Min,
            List.of(HPAScalingPolicy.percent(10, 60), HPAScalingPolicy.pods(15, 60)), 90));
  }

  @ParameterizedTest(name = "{0}") // karmada TestCalculateScaleDownLimitWithBehaviors
  @MethodSource("karmadaScaleDownLimit")
  void calculateScaleDownLimitWithBehaviors_karmadaTable(String name, int current, List<ScaleEvent> down,
      ScalingPolicySelect select, List<HPAScalingPolicy> policies, int expected) {
    assertThat(ReplicaNormalizer.calculateScaleDownLimitWithBehaviors(current, List.of(), down,
        new HPAScalingRules(300, select, policies), NOW)).isEqualTo(expected);
  }
}
