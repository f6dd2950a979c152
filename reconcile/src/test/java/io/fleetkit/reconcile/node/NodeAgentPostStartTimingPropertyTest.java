package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Lifecycle;
import io.fleetkit.api.core.LifecycleHandler;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Over pods of 1 to 4 containers, each with a {@code postStart} sleep of 0 to 10 s or none: the kubelet's sync starts
 * them one after the other, each when the hooks before it returned, so container {@code i} starts at the sum of the
 * earlier hooks; no status ever shows a container running before its own hook returned; the pod is Pending until the
 * first hook returned and Running from then on.
 */
final class NodeAgentPostStartTimingPropertyTest {

  @Property(tries = 100)
  void containersStartOneAfterTheOther_shownWhenTheSyncReturned(
      @ForAll @Size(min = 1, max = 4) List<@IntRange(min = -1, max = 10) Integer> hooks) {
    ManualClock clock = ManualClock.atEpoch2026();
    Instant t0 = clock.now();
    try (ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build()) {
      store.create(Node.builder().name("n1").build());
      NodeAgent agent = NodeAgent.builder(store, clock, "n1").build();
      agent.start();
      List<Long> writtenAt = new ArrayList<>();
      List<Pod> seen = new ArrayList<>();
      store.watch(Pod.class, "", (WatchEvent<Pod> e) -> {
        seen.add(e.object());
        writtenAt.add(clock.now().getEpochSecond() - t0.getEpochSecond());
      });
      Pod.Builder b = Pod.builder().namespace("default").name("p").nodeName("n1").terminationGracePeriodSeconds(30);
      long[] startAt = new long[hooks.size()];
      long t = 0;
      for (int i = 0; i < hooks.size(); i++) {
        int h = hooks.get(i);
        Container c = Container.of("c" + i, "web:1", ResourceList.EMPTY);
        b.container(h < 0 ? c : c.withLifecycle(Lifecycle.postStart(new LifecycleHandler.Sleep(h))));
        startAt[i] = t;
        t += Math.max(h, 0);
      }
      long syncReturns = t; // one SyncPod starts them all, waiting for each hook in turn
      store.create(b.build());
      agent.sync();
      Instant end = t0.plusSeconds(t + 5);
      while (clock.now().isBefore(end)) {
        clock.advanceTo(clock.nextDeadline().filter(d -> d.isBefore(end)).orElse(end));
        agent.sync();
      }

      Pod last = store.get(Pod.class, "default", "p").orElseThrow();
      assertThat(last.status().phase()).isEqualTo(PodPhase.Running);
      for (int i = 0; i < hooks.size(); i++) {
        ContainerStatus s = last.status().containerStatuses().get(i);
        assertThat(s.state().type()).isEqualTo(ContainerStateType.Running);
        assertThat(s.state().startedAt()).as("container %d", i).isEqualTo(t0.plusSeconds(startAt[i]));
      }
      for (int w = 0; w < seen.size(); w++) {
        Pod p = seen.get(w);
        boolean anyRunning = p.status().containerStatuses().stream()
            .anyMatch(c -> c.state().type() == ContainerStateType.Running);
        if (writtenAt.get(w) < syncReturns) {
          assertThat(anyRunning).as("written at %d s, before the sync returned at %d s", writtenAt.get(w),
              syncReturns).isFalse();
          assertThat(p.status().phase()).isIn(PodPhase.Pending, PodPhase.Unknown);
        }
        if (p.status().phase() == PodPhase.Running) {
          assertThat(anyRunning).isTrue();
        }
      }
    }
  }
}
