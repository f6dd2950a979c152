package io.fleetkit.autoscale.provisioner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Karpenter's recorder ({@code pkg/events/recorder.go}): go-cache deduplication and the nomination token bucket. */
final class KarpenterEventsTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final EventLog log = new EventLog();
  private final KarpenterEvents events = new KarpenterEvents(log, clock);

  private static Pod pod(String name) {
    return Pod.builder().name(name).uid("uid-" + name)
        .container("app", "img", io.fleetkit.api.resource.ResourceList.EMPTY).build();
  }

  @Test
  void dedupe_aRepeatAtExactlyTheTimeoutIsDropped_oneAfterIsRecorded() {
    Node n = Node.builder().name("n").uid("uid-n").build();
    events.blocked(n, "Node isn't initialized");
    clock.advance(KarpenterEvents.DEFAULT_DEDUPE_TIMEOUT);
    events.blocked(n, "Node is nominated for a pending pod"); // the key is reason and uid: the note does not count
    assertThat(log.events).containsExactly("Normal DisruptionBlocked Node/n: Node isn't initialized");
    clock.advance(Duration.ofNanos(1));
    events.blocked(n, "Node is nominated for a pending pod");
    assertThat(log.events).hasSize(2).last().isEqualTo("Normal DisruptionBlocked Node/n: Node is nominated for a "
        + "pending pod");
  }

  @Test
  void dedupe_keyedByReasonAndValues_otherReasonsAndObjectsPass() {
    Node n = Node.builder().name("n").uid("uid-n").build();
    events.blocked(n, "x");
    events.unconsolidatable(n, "x");
    events.terminating(ObjectReference.to(n), DisruptionReason.Empty);
    events.terminating(ObjectReference.to(n), DisruptionReason.Underutilized); // the reason is a dedupe value
    events.terminating(ObjectReference.to(n), DisruptionReason.Empty);
    events.blocked(Node.builder().name("m").uid("uid-m").build(), "x");
    assertThat(log.events).containsExactly(
        "Normal DisruptionBlocked Node/n: x",
        "Normal Unconsolidatable Node/n: x",
        "Normal DisruptionTerminating Node/n: Disrupting Node: Empty",
        "Normal DisruptionTerminating Node/n: Disrupting Node: Underutilized",
        "Normal DisruptionBlocked Node/m: x");
  }

  @Test
  void nominations_burstOfTen_thenFiveASecond() {
    for (int i = 0; i < 12; i++) {
      events.nominated(pod("p" + i), "c");
    }
    assertThat(log.events).hasSize(10);
    clock.advance(Duration.ofMillis(400)); // two tokens back
    for (int i = 12; i < 15; i++) {
      events.nominated(pod("p" + i), "c");
    }
    assertThat(log.events).hasSize(12);
    // a dropped nomination is in the dedupe cache all the same (Karpenter checks the cache first)
    clock.advance(Duration.ofSeconds(10));
    events.nominated(pod("p10"), "c");
    assertThat(log.events).hasSize(12);
  }

  @Test
  void failedScheduling_isAWarning_keptFiveMinutes() {
    Pod p = pod("a");
    events.failedScheduling(p, "no instance type has enough resources");
    clock.advance(KarpenterEvents.FAILED_SCHEDULING_DEDUPE_TIMEOUT);
    events.failedScheduling(p, "no instance type has enough resources");
    assertThat(log.events).containsExactly(
        "Warning FailedScheduling Pod/default/a: Failed to schedule pod, no instance type has enough resources");
  }
}
