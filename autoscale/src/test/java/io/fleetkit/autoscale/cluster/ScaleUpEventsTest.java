package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.events.EventRecorder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * kubernetes/autoscaler {@code cluster-autoscaler/processors/status/eventing_scale_up_processor_test.go} (commit
 * 0e20a385): TestEventingScaleUpStatusProcessor (4 cases), TestReasonsMessage and
 * TestReasonsMessageWhenScaleUpLimitedByMaxNodesTotal, against {@link ScaleUpEvents}. Upstream's test node groups
 * that do not exist ({@code tmp group 1}, {@code tmp group 2}) are pools outside the considered set.
 */
final class ScaleUpEventsTest {
  private static final Pod P1 = ActuationFixtures.removablePod("p1", "");
  private static final Pod P2 = ActuationFixtures.removablePod("p2", "");
  private static final Pod P3 = ActuationFixtures.removablePod("p3", "");
  private static final Map<String, List<String>> REASONS = Map.of("group 1", List.of("not schedulable"),
      "group 2", List.of("not schedulable"), "group 3", List.of("also not schedulable"));
  private static final Set<String> GROUPS = Set.of("group 1", "group 2", "group 3");
  private static final List<PoolScaleUp> ONE_SCALE_UP = List.of(new PoolScaleUp("group 1", 1, 2, 10));

  private final List<String> events = new ArrayList<>();
  private final EventRecorder recorder = (regarding, related, type, reason, action, note) -> events.add(type + " "
      + reason + " " + action + " " + regarding.name() + ": " + note);

  private static ScaleUpEvents.NoScaleUp noScaleUp(Pod p) {
    return new ScaleUpEvents.NoScaleUp(p, REASONS, REASONS);
  }

  private long count(String reason) {
    return events.stream().filter(e -> e.startsWith("Normal " + reason + " ")).count();
  }

  @Test
  void noScaleUp_noOptionsAvailable_everyRemainingPodNotTriggered() {
    ScaleUpEvents.record(recorder, ScaleUpEvents.Result.NO_OPTIONS_AVAILABLE, List.of(), List.of(),
        List.of(noScaleUp(P1), noScaleUp(P2)), GROUPS);
    assertThat(count(ScaleUpEvents.TRIGGERED)).isZero();
    assertThat(count(ScaleUpEvents.NOT_TRIGGERED)).isEqualTo(2);
    // each remaining pod's note aggregates its pools' reasons, rejected and skipped alike
    assertThat(events).allSatisfy(e -> assertThat(e).contains(": pod didn't trigger scale-up: ")
        .contains("4 not schedulable").contains("2 also not schedulable"));
  }

  @Test
  void scaleUp_somePodsRemainUnschedulable_onlyTheTriggeringPod() {
    ScaleUpEvents.record(recorder, ScaleUpEvents.Result.SUCCESSFUL, ONE_SCALE_UP, List.of(P3),
        List.of(noScaleUp(P1), noScaleUp(P2)), GROUPS);
    assertThat(count(ScaleUpEvents.TRIGGERED)).isEqualTo(1);
    assertThat(count(ScaleUpEvents.NOT_TRIGGERED)).isZero();
    assertThat(events).containsExactly("Normal TriggeredScaleUp ScaleUp p3: pod triggered scale-up: "
        + "[{group 1 1->2 (max: 10)}]");
  }

  @Test
  void scaleFailed_podsRemainUnschedulable_noEvent() {
    ScaleUpEvents.record(recorder, ScaleUpEvents.Result.ERROR, ONE_SCALE_UP, List.of(),
        List.of(noScaleUp(P1), noScaleUp(P2), noScaleUp(P3)), GROUPS);
    assertThat(events).isEmpty();
  }

  @Test
  void noScaleUp_maxTotalNodesReached_everyRemainingPodNotTriggered() {
    ScaleUpEvents.record(recorder, ScaleUpEvents.Result.LIMITED_BY_MAX_NODES_TOTAL, ONE_SCALE_UP, List.of(),
        List.of(new ScaleUpEvents.NoScaleUp(P1, Map.of(), Map.of()), new ScaleUpEvents.NoScaleUp(P2, Map.of(), Map.of()),
            new ScaleUpEvents.NoScaleUp(P3, Map.of(), Map.of())), Set.of());
    assertThat(count(ScaleUpEvents.TRIGGERED)).isZero();
    assertThat(count(ScaleUpEvents.NOT_TRIGGERED)).isEqualTo(3);
    assertThat(events).allSatisfy(e -> assertThat(e).endsWith(
        ": pod didn't trigger scale-up: max total nodes in cluster reached"));
  }

  /** TestReasonsMessage: reasons of considered pools that exist, counted over rejected and skipped pools. */
  @Test
  void reasonsMessage_aggregatesReasonsOfExistingConsideredPools() {
    Map<String, List<String>> rejected = Map.of("group 1", List.of("not schedulable"),
        "group 2", List.of("not schedulable"), "group 3", List.of("also not schedulable"),
        "tmp group 1", List.of("also not schedulable"));
    Map<String, List<String>> skipped = Map.of("group 4", List.of("max limit reached"),
        "group 5", List.of("not ready"), "group 6", List.of("max limit reached"),
        "tmp group 2", List.of("max limit reached"));
    Set<String> existing = Set.of("group 1", "group 2", "group 3", "group 4", "group 5", "group 6");

    String result = ScaleUpEvents.reasonsMessage(ScaleUpEvents.Result.NO_OPTIONS_AVAILABLE,
        new ScaleUpEvents.NoScaleUp(P1, rejected, skipped), existing);

    assertThat(result).contains("2 not schedulable", "1 also not schedulable", "2 max limit reached", "1 not ready");
    // beyond upstream's Contains: nothing else, in a fixed order
    assertThat(result).isEqualTo("2 not schedulable, 1 also not schedulable, 2 max limit reached, 1 not ready");
  }

  @Test
  void reasonsMessage_scaleUpLimitedByMaxNodesTotal() {
    assertThat(ScaleUpEvents.reasonsMessage(ScaleUpEvents.Result.LIMITED_BY_MAX_NODES_TOTAL,
        new ScaleUpEvents.NoScaleUp(P1, Map.of(), Map.of()), Set.of())).contains("max total nodes in cluster reached");
  }
}
