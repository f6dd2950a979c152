package io.fleetkit.scheduler.internal;

import static io.fleetkit.scheduler.internal.QueueHarness.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.scheduler.internal.QueueHarness.Hint;
import io.fleetkit.scheduler.internal.QueuedPod.Where;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.UniqueElements;

/**
 * A gated pod sees only its gating plugin's events (upstream's {@code GatingPluginEvents}): PreEnqueue runs again for a
 * cluster event exactly when the gating plugin registered it and its hint queues, or for the wildcard move.
 */
final class GatedPodEventsPropertiesTest {
  /** The cluster events the queue's moves take (the pod's own updates are {@code update}'s). */
  private static final List<ClusterEvent> CLUSTER_EVENTS = List.of(ClusterEvent.NODE_ADD, ClusterEvent.NODE_UPDATE,
      ClusterEvent.NODE_DELETE, ClusterEvent.ASSIGNED_POD_ADD, ClusterEvent.ASSIGNED_POD_UPDATE,
      ClusterEvent.ASSIGNED_POD_DELETE, ClusterEvent.UNSCHEDULED_POD_ADD, ClusterEvent.NAMESPACE_UPDATE,
      ClusterEvent.STORAGE, ClusterEvent.DYNAMIC_RESOURCES, ClusterEvent.OTHER);

  @Property(tries = 300)
  void preEnqueueRunsOnlyForTheGatingPluginsQueueingEvents(
      @ForAll @Size(max = 5) @UniqueElements List<@IntRange(min = 0, max = 10) Integer> registered,
      @ForAll @Size(min = 5, max = 5) List<Boolean> queues,
      @ForAll @Size(min = 1, max = 20) List<@IntRange(min = -1, max = 10) Integer> events,
      @ForAll @Size(min = 20, max = 20) List<Boolean> hinted) {
    QueueHarness h = new QueueHarness().plugin("Gate"); // implements EnqueueExtensions, perhaps registering nothing
    Set<ClusterEvent> queueing = EnumSet.noneOf(ClusterEvent.class);
    Set<ClusterEvent> registering = EnumSet.noneOf(ClusterEvent.class);
    for (int i = 0; i < registered.size(); i++) {
      ClusterEvent e = CLUSTER_EVENTS.get(registered.get(i));
      h.hint("Gate", e, queues.get(i) ? Hint.QUEUE : Hint.SKIP);
      registering.add(e);
      if (queues.get(i)) {
        queueing.add(e);
      }
    }
    h.preEnqueue("Gate", "admitted").build();
    Pod p = pod("p", "default", 0);
    h.add(p);
    assertThat(h.where(p)).isEqualTo(Where.GATED);
    int runs = h.preEnqueueCalls.get("Gate");
    for (int i = 0; i < events.size(); i++) {
      ClusterEvent e = events.get(i) < 0 ? null : CLUSTER_EVENTS.get(events.get(i)); // null: the wildcard move
      if (e == null) {
        h.q.moveAllToActiveOrBackoff(h.now);
      } else if (hinted.get(i)) {
        h.q.moveAllToActiveOrBackoff(e, null, null, h.now);
      } else {
        h.q.moveAllToActiveOrBackoff(e, h.now);
      }
      if (e == null || (hinted.get(i) ? queueing : registering).contains(e)) {
        runs++;
      }
      assertThat(h.preEnqueueCalls.get("Gate")).as("after %s", e).isEqualTo(runs);
      assertThat(h.where(p)).isEqualTo(Where.GATED);
    }
  }
}
