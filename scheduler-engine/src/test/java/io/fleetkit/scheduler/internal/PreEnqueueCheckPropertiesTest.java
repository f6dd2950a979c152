package io.fleetkit.scheduler.internal;

import static io.fleetkit.scheduler.internal.QueueHarness.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.scheduler.internal.QueueHarness.Hint;
import io.fleetkit.scheduler.internal.QueuedPod.Where;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** The move with a PreEnqueueCheck moves exactly the parked pods the event may help and the check accepts. */
final class PreEnqueueCheckPropertiesTest {

  @Property(tries = 200)
  void moveAll_movesExactlyTheHelpedPodsTheCheckAccepts(
      @ForAll @Size(min = 1, max = 12) List<@IntRange(min = 0, max = 9) Integer> priorities,
      @ForAll @Size(min = 12, max = 12) List<Boolean> rejectedByPicky,
      @ForAll @IntRange(min = 0, max = 10) int threshold, @ForAll @IntRange(min = 0, max = 2) int eventKind) {
    QueueHarness h = new QueueHarness().hint("Picky", ClusterEvent.NODE_ADD, Hint.QUEUE)
        .hint("Other", ClusterEvent.STORAGE, Hint.QUEUE).build();
    List<Pod> pods = new ArrayList<>();
    Set<String> want = new TreeSet<>();
    ClusterEvent event = eventKind == 0 ? null : eventKind == 1 ? ClusterEvent.NODE_ADD : ClusterEvent.STORAGE;
    for (int i = 0; i < priorities.size(); i++) {
      Pod p = pod("p" + i, "default", priorities.get(i));
      pods.add(p);
      h.add(p);
      boolean picky = rejectedByPicky.get(i);
      h.requeue(h.pop(p), picky ? "Picky" : "Other");
      boolean helped = event == null || (picky ? event == ClusterEvent.NODE_ADD : event == ClusterEvent.STORAGE);
      if (helped && priorities.get(i) >= threshold) {
        want.add("p" + i);
      }
    }
    Set<String> asked = new TreeSet<>();
    int moved = h.q.moveAllToActiveOrBackoff(event, p -> {
      asked.add(p.metadata().name());
      return p.spec().priority() >= threshold;
    }, h.now);
    assertThat(moved).isEqualTo(want.size());
    assertThat(h.names(Where.BACKOFF)).containsExactlyInAnyOrderElementsOf(want);
    assertThat(h.q.unschedulableSize()).isEqualTo(pods.size() - want.size());
    assertThat(h.q.size()).isEqualTo(pods.size());
    assertThat(asked).as("only pods the event may help are checked").containsAll(want);
    for (int i = 0; i < pods.size(); i++) {
      boolean picky = rejectedByPicky.get(i);
      boolean helped = event == null || (picky ? event == ClusterEvent.NODE_ADD : event == ClusterEvent.STORAGE);
      if (!helped) {
        assertThat(asked).doesNotContain("p" + i);
      }
    }
  }
}
