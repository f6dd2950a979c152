package io.fleetkit.autoscale.hpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.autoscaling.HPAScalingPolicy;
import io.fleetkit.api.autoscaling.HPAScalingRules;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerBehavior;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerSpec;
import io.fleetkit.api.autoscaling.ScalingPolicySelect;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.jspecify.annotations.Nullable;

/**
 * Invariants of the HPA normalization over random metric proposals fed every 1..120 s, rescaling each time as the
 * controller does: the replica count never leaves {@code [minReplicas, maxReplicas]}, and with a behavior it never
 * scales down within the scale-down stabilization window after a scale-up, nor up within the scale-up window after a
 * scale-down; the conditions it keeps from sync to sync equal those of a twin that makes them afresh at every sync.
 */
final class ReplicaNormalizerPropertyTest {
  /** One sync: seconds since the previous one and the metrics' proposal. */
  record Step(int seconds, int desired) {}

  @Provide
  Arbitrary<List<Step>> steps() {
    return Combinators.combine(Arbitraries.integers().between(1, 120), Arbitraries.integers().between(0, 200))
        .as(Step::new).list().ofMinSize(1).ofMaxSize(60);
  }

  @Provide
  Arbitrary<HPAScalingRules> rules() {
    Arbitrary<HPAScalingPolicy> policy = Combinators.combine(Arbitraries.of(true, false),
        Arbitraries.integers().between(1, 300), Arbitraries.integers().between(1, 600))
        .as((pods, value, period) -> pods ? HPAScalingPolicy.pods(value, period)
            : HPAScalingPolicy.percent(value, period));
    return Combinators.combine(Arbitraries.of(0, 15, 60, 120, 300, 600), Arbitraries.of(ScalingPolicySelect.values()),
        policy.list().ofMinSize(1).ofMaxSize(3)).as(HPAScalingRules::new);
  }

  @Property(tries = 200)
  void normalize_withBehavior_staysInBoundsAndNeverFlipsInsideWindows(
      @ForAll @IntRange(min = 1, max = 10) int minReplicas, @ForAll @IntRange(min = 0, max = 60) int extra,
      @ForAll @IntRange(min = 0, max = 70) int start, @ForAll("rules") HPAScalingRules up,
      @ForAll("rules") HPAScalingRules down, @ForAll("steps") List<Step> steps) {
    int maxReplicas = minReplicas + extra;
    HorizontalPodAutoscalerBehavior behavior = new HorizontalPodAutoscalerBehavior(up, down);
    run(minReplicas, maxReplicas, start, behavior, steps);
  }

  @Property(tries = 200)
  void normalize_legacy_staysInBounds(@ForAll @IntRange(min = 1, max = 10) int minReplicas,
      @ForAll @IntRange(min = 0, max = 60) int extra, @ForAll @IntRange(min = 0, max = 70) int start,
      @ForAll("steps") @Size(min = 1) List<Step> steps) {
    run(minReplicas, minReplicas + extra, start, null, steps);
  }

  private static void run(int minReplicas, int maxReplicas, int start, @Nullable HorizontalPodAutoscalerBehavior behavior,
      List<Step> steps) {
    ManualClock clock = new ManualClock(Instant.parse("2026-06-01T00:00:00Z"));
    ReplicaNormalizer normalizer = ReplicaNormalizer.withDefaults(clock);
    ReplicaNormalizer cold = ReplicaNormalizer.withDefaults(clock); // its conditions made afresh at every sync
    HorizontalPodAutoscalerSpec spec = HorizontalPodAutoscalerSpec.builder()
        .scaleTargetRef(CrossVersionObjectReference.deployment("web")).minReplicas(minReplicas)
        .maxReplicas(maxReplicas).behavior(behavior).build();
    int current = Math.max(minReplicas, Math.min(maxReplicas, start));
    normalizer.recordInitialRecommendation("k", current);
    cold.recordInitialRecommendation("k", current);
    Instant lastUp = null;
    Instant lastDown = null;
    for (Step step : steps) {
      clock.advance(Duration.ofSeconds(step.seconds()));
      Instant now = clock.instant();
      ReplicaNormalizer.Normalized normalized = normalizer.normalize("k", spec, current, step.desired());
      cold.forgetConditions();
      assertThat(normalized).as("kept conditions against made afresh")
          .isEqualTo(cold.normalize("k", spec, current, step.desired()));
      int next = normalized.replicas();
      assertThat(next).as("replicas after proposal %s from %s", step.desired(), current)
          .isBetween(minReplicas, maxReplicas);
      if (behavior != null) {
        if (next < current && lastUp != null) {
          long window = behavior.scaleDown().stabilizationWindowSecondsOr(300);
          assertThat(Duration.between(lastUp, now).toSeconds()).as("scale-down after scale-up at %s", lastUp)
              .isGreaterThanOrEqualTo(window);
        }
        if (next > current && lastDown != null) {
          long window = behavior.scaleUp().stabilizationWindowSecondsOr(0);
          assertThat(Duration.between(lastDown, now).toSeconds()).as("scale-up after scale-down at %s", lastDown)
              .isGreaterThanOrEqualTo(window);
        }
      }
      if (next != current) {
        normalizer.storeScaleEvent(behavior, "k", current, next);
        cold.storeScaleEvent(behavior, "k", current, next);
        if (next > current) {
          lastUp = now;
        } else {
          lastDown = now;
        }
        current = next;
      }
    }
  }
}
