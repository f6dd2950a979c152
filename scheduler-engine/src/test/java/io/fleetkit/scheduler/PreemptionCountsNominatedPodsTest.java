package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.time.ManualClock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Preemption's victim search counts the pods nominated to the node with a priority at least the preemptor's, as
 * upstream's {@code SelectVictimsOnNode} does through {@code RunFilterPluginsWithNominatedPods}: the preemptor must fit
 * beside them, so it takes as many victims as that needs; pods of lower priority nominated there are not counted.
 */
final class PreemptionCountsNominatedPodsTest {
  private final ManualClock clock = ManualClock.atEpoch2026();

  private static Pod nominatedTo(Pod p, String node) {
    return p.withStatus(p.status().withNominatedNodeName(node));
  }

  /** n1: 2 CPUs, four pods of 400m at priority 0 (400m free); the preemptor asks 1 CPU at priority 1000. */
  private ScheduleResult preempt(Pod nominated) {
    PreemptionClearsNominationsTest.Recording evictor = new PreemptionClearsNominationsTest.Recording();
    try (Scheduler s = Scheduler.builder().clock(clock).evictor(evictor).build()) {
      s.addNode(node("n1", 2000, 8192, 110));
      for (String name : List.of("a", "b", "c", "d")) {
        s.addPod(pod(name, 400, 10, 0).withNodeName("n1"));
      }
      s.addPod(pod("high", 1000, 10, 1000));
      s.addPod(nominated);
      ScheduleResult r = s.scheduleOne();
      assertThat(r).isNotNull();
      assertThat(r.podKey()).isEqualTo("default/high");
      assertThat(r.code()).isEqualTo(Status.Code.UNSCHEDULABLE);
      assertThat(r.nominatedNodeName()).isEqualTo("n1");
      assertThat(evictor.evicted).hasSameSizeAs(r.victims());
      return r;
    }
  }

  @Test
  void equalPriorityPodNominatedThere_preemptorMakesRoomForBoth() {
    // 1000m for the preemptor and 500m for the nominated peer: 1100m more than the 400m free, three victims
    ScheduleResult r = preempt(nominatedTo(pod("peer", 500, 10, 1000), "n1"));
    assertThat(r.victims()).hasSize(3);
  }

  @Test
  void lowerPriorityPodNominatedThere_notCounted() {
    // only the preemptor's 1000m: 600m more than free, two victims
    ScheduleResult r = preempt(nominatedTo(pod("lower", 500, 10, 500), "n1"));
    assertThat(r.victims()).hasSize(2);
  }
}
