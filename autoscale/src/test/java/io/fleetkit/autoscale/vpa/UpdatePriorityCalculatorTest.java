package io.fleetkit.autoscale.vpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetkit.api.autoscaling.ContainerResourcePolicy;
import io.fleetkit.api.autoscaling.ContainerScalingMode;
import io.fleetkit.api.autoscaling.PodResourcePolicy;
import io.fleetkit.api.autoscaling.RecommendedContainerResources;
import io.fleetkit.api.autoscaling.RecommendedPodResources;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code TestGetUpdatePriority} and {@code TestGetUpdatePriority_NoRecommendationForContainer} of kubernetes/autoscaler
 * {@code vertical-pod-autoscaler/pkg/updater/priority/
 * priority_processor_test.go} at commit 07fa7cba (all 15 cases of the table; later versions add a case reading
 * requests from container statuses, which FleetKit's pod status does not carry) and the eviction rules of
 * {@code update_priority_calculator.go}.
 */
final class UpdatePriorityCalculatorTest {
  static final String C1 = "test-container";
  static final String C2 = "test-container-2";
  static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

  static ResourceList res(@Nullable String cpu, @Nullable String mem) {
    ResourceList.Builder b = ResourceList.builder();
    if (cpu != null) {
      b.put(ResourceNames.CPU, Quantity.parse(cpu));
    }
    if (mem != null) {
      b.put(ResourceNames.MEMORY, Quantity.parse(mem));
    }
    return b.build();
  }

  static Pod pod(ResourceList... containerRequests) {
    Pod.Builder b = Pod.builder().namespace("ns").name("pod1");
    for (int i = 0; i < containerRequests.length; i++) {
      b.container(i == 0 ? C1 : C2, "img", containerRequests[i]);
    }
    return b.build();
  }

  static RecommendedContainerResources rec(String name, ResourceList target, ResourceList lower,
      ResourceList upper) {
    return new RecommendedContainerResources(name, target, lower, upper, target);
  }

  static RecommendedPodResources recs(RecommendedContainerResources... r) {
    return new RecommendedPodResources(List.of(r));
  }

  static Stream<Arguments> getUpdatePriority() {
    ResourceList none = ResourceList.EMPTY;
    return Stream.of(
        Arguments.of("simple scale up", pod(res("2", null)), recs(rec(C1, res("10", null), none, none)), false, 4.0,
            true),
        Arguments.of("simple scale down", pod(res("4", null)), recs(rec(C1, res("2", null), none, none)), false, 0.5,
            false),
        Arguments.of("no resource diff", pod(res("2", null)), recs(rec(C1, res("2", null), none, none)), false, 0.0,
            false),
        Arguments.of("scale up on milliquanitites", pod(res("10m", null)), recs(rec(C1, res("900m", null), none,
            none)), false, 89.0, true),
        Arguments.of("scale up outside recommended range", pod(res("4", null)),
            recs(rec(C1, res("10", null), res("6", null), res("14", null))), true, 1.5, true),
        Arguments.of("scale down outside recommended range", pod(res("8", null)),
            recs(rec(C1, res("2", null), res("1", null), res("3", null))), true, 0.75, false),
        Arguments.of("scale up with multiple quantities", pod(res("2", null)),
            recs(rec(C1, res("10", null), none, none)), false, 4.0, true),
        Arguments.of("multiple resources, both scale up", pod(res("3", "10M")),
            recs(rec(C1, res("6", "20M"), none, none)), false, 2.0, true),
        Arguments.of("multiple resources, only one scale up", pod(res("4", "10M")),
            recs(rec(C1, res("2", "20M"), none, none)), false, 1.5, true),
        Arguments.of("multiple resources, both scale down", pod(res("4", "20M")),
            recs(rec(C1, res("2", "10M"), none, none)), false, 1.0, false),
        Arguments.of("multiple resources, one outside recommended range", pod(res("4", "20M")),
            recs(rec(C1, res("2", "10M"), res("1", "5M"), res("3", "30M"))), true, 1.0, false),
        Arguments.of("multiple containers, both scale up", pod(res("1", null), res("2", null)),
            recs(rec(C1, res("4", null), none, none), rec(C2, res("8", null), none, none)), false, 3.0, true),
        Arguments.of("multiple containers, both scale down", pod(res("3", null), res("7", null)),
            recs(rec(C1, res("1", null), none, none), rec(C2, res("2", null), none, none)), false, 0.7, false),
        Arguments.of("multiple containers, both scale up, one outside range", pod(res("1", null), res("2", null)),
            recs(rec(C1, res("4", null), res("1", null), none), rec(C2, res("8", null), res("3", null),
                res("10", null))), true, 3.0, true),
        Arguments.of("multiple containers, multiple resources", pod(res("6", "10M"), res("4", "30M")),
            recs(rec(C1, res("8", "20M"), none, none), rec(C2, res("7", "30M"), none, none)), false, 0.75, true));
  }

  @ParameterizedTest(name = "{0}") // priority_processor_test.go TestGetUpdatePriority
  @MethodSource("getUpdatePriority")
  void priority_upstreamTable(String name, Pod pod, RecommendedPodResources rec, boolean outside, double diff,
      boolean scaleUp) {
    PodPriority p = UpdatePriorityCalculator.priority(pod, rec);
    assertThat(p.outsideRecommendedRange()).as("outside").isEqualTo(outside);
    assertThat(p.resourceDiff()).as("diff").isCloseTo(diff, within(1e-9));
    assertThat(p.scaleUp()).as("scaleUp").isEqualTo(scaleUp);
  }

  @Test // priority_processor_test.go TestGetUpdatePriority_NoRecommendationForContainer
  void priority_noRecommendation_zero() {
    PodPriority p = UpdatePriorityCalculator.priority(pod(res("5", "10")), null);
    assertThat(p).isEqualTo(new PodPriority(false, false, 0.0));
  }

  private static Pod started(Pod p, Duration ago, @Nullable ContainerState state) {
    PodStatus s = PodStatus.of(PodPhase.Running).withStartTime(NOW.minus(ago));
    if (state != null) {
      s = s.withContainerStatuses(List.of(new ContainerStatus(C1, true, 1, state)));
    }
    return p.withStatus(s);
  }

  private static ContainerState oomAfter(Duration run) {
    Instant finished = NOW.minus(Duration.ofMinutes(1));
    return new ContainerState(ContainerStateType.Terminated, "OOMKilled", 137, finished.minus(run), finished);
  }

  @Test // update_priority_calculator semantics: within range, young pod, large diff -> wait for 12 h
  void updatePriority_withinRangeYoungPod_notUpdated() {
    RecommendedPodResources r = recs(rec(C1, res("4", null), res("1", null), res("8", null)));
    Pod p = started(pod(res("2", null)), Duration.ofHours(11), null);
    assertThat(UpdatePriorityCalculator.updatePriority(p, r, null, NOW)).isEmpty();
  }

  @Test
  void updatePriority_withinRangeLongLivedPodBigDiff_updated() {
    RecommendedPodResources r = recs(rec(C1, res("4", null), res("1", null), res("8", null)));
    Pod p = started(pod(res("2", null)), Duration.ofHours(12), null);
    assertThat(UpdatePriorityCalculator.updatePriority(p, r, null, NOW)).isPresent();
  }

  @Test
  void updatePriority_withinRangeLongLivedPodSmallDiff_notUpdated() {
    RecommendedPodResources r = recs(rec(C1, res("2100m", null), res("1", null), res("8", null)));
    Pod p = started(pod(res("2", null)), Duration.ofHours(24), null);
    assertThat(UpdatePriorityCalculator.updatePriority(p, r, null, NOW)).isEmpty(); // diff 0.05 < 0.1
  }

  @Test
  void updatePriority_outsideRangeYoungPod_updated() {
    RecommendedPodResources r = recs(rec(C1, res("4", null), res("3", null), res("8", null)));
    Pod p = started(pod(res("2", null)), Duration.ofMinutes(5), null);
    assertThat(UpdatePriorityCalculator.updatePriority(p, r, null, NOW)).isPresent();
  }

  @Test
  void updatePriority_quickOom_updatedEvenWhenYoungAndInRange() {
    RecommendedPodResources r = recs(rec(C1, res("2100m", null), res("1", null), res("8", null)));
    Pod p = started(pod(res("2", null)), Duration.ofMinutes(5), oomAfter(Duration.ofMinutes(3)));
    assertThat(UpdatePriorityCalculator.updatePriority(p, r, null, NOW)).isPresent();
  }

  @Test
  void updatePriority_quickOomWithoutResourceChange_notUpdated() {
    RecommendedPodResources r = recs(rec(C1, res("2", null), res("1", null), res("8", null)));
    Pod p = started(pod(res("2", null)), Duration.ofMinutes(5), oomAfter(Duration.ofMinutes(3)));
    assertThat(UpdatePriorityCalculator.updatePriority(p, r, null, NOW)).isEmpty();
  }

  @Test
  void updatePriority_oomAfterLongRun_notQuick() {
    RecommendedPodResources r = recs(rec(C1, res("2100m", null), res("1", null), res("8", null)));
    Pod p = started(pod(res("2", null)), Duration.ofMinutes(30), oomAfter(Duration.ofMinutes(20)));
    assertThat(UpdatePriorityCalculator.updatePriority(p, r, null, NOW)).isEmpty();
  }

  @Test
  void updatePriority_quickOomInContainerWithModeOff_ignored() {
    RecommendedPodResources r = recs(rec(C1, res("2100m", null), res("1", null), res("8", null)));
    Pod p = started(pod(res("2", null)), Duration.ofMinutes(5), oomAfter(Duration.ofMinutes(3)));
    PodResourcePolicy off = PodResourcePolicy.of(ContainerResourcePolicy.of(C1).withMode(ContainerScalingMode.Off));
    assertThat(UpdatePriorityCalculator.updatePriority(p, r, off, NOW)).isEmpty();
  }

  @Test
  void podPriority_order_scaleUpFirstThenLargerDiff() {
    List<PodPriority> l = new ArrayList<>(List.of(new PodPriority(false, false, 5.0),
        new PodPriority(false, true, 0.5), new PodPriority(true, true, 1.0)));
    l.sort(java.util.Comparator.reverseOrder());
    assertThat(l).containsExactly(new PodPriority(true, true, 1.0), new PodPriority(false, true, 0.5),
        new PodPriority(false, false, 5.0));
  }
}
