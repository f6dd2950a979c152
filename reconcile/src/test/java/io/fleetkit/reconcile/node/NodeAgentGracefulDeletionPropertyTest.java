package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.jspecify.annotations.Nullable;

/**
 * Over random SIGTERM handlers (exit after 0 to 40 s with 0 or 143, or never), grace periods (0 to 40 s) and a second
 * deletion (none, or a later one with another grace period): the simulated kubelet removes a deleted pod exactly when
 * its container exits (by itself on SIGTERM, or SIGKILL at the end of the shortest grace period asked, at least 2 s
 * from the kill that set it), never restarts it, and its last status is Succeeded exactly when that exit was 0. A
 * deletion with grace period 0 removes the pod at once.
 */
final class NodeAgentGracefulDeletionPropertyTest {

  @Property(tries = 300)
  void deletedPod_removedWhenItsContainerExits_neverRestarted(
      @ForAll @IntRange(min = -1, max = 40) int stopAfter, @ForAll boolean cleanExit,
      @ForAll @IntRange(min = 0, max = 40) int grace, @ForAll @IntRange(min = -1, max = 40) int secondAfter,
      @ForAll @IntRange(min = 0, max = 40) int secondGrace) {
    ManualClock clock = ManualClock.atEpoch2026();
    Instant t0 = clock.now();
    try (ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build()) {
      store.create(Node.builder().name("n1").build());
      NodeAgent agent = NodeAgent.builder(store, clock, "n1").healthSource(HealthSource.fromAnnotations()).build();
      agent.start();
      List<Pod> seen = new ArrayList<>();
      List<WatchEventType> types = new ArrayList<>();
      store.watch(Pod.class, "", (WatchEvent<Pod> e) -> {
        seen.add(e.object());
        types.add(e.type());
      });
      store.create(Pod.builder().namespace("default").name("p").restartPolicy(RestartPolicy.Always).nodeName("n1")
          .annotation(HealthSource.STOP_AFTER + ".main", stopAfter < 0 ? "never" : Integer.toString(stopAfter))
          .annotation(HealthSource.STOP_EXIT_CODE + ".main", cleanExit ? "0" : "143")
          .container("main", "web:1", ResourceList.EMPTY).build());
      agent.sync();
      clock.advanceTo(t0.plusSeconds(10));
      agent.sync();

      Instant deleted = clock.now();
      store.delete(Pod.class, "default", "p", DeleteOptions.gracePeriod(grace));
      if (grace == 0) {
        assertThat(store.get(Pod.class, "default", "p")).as("grace period 0: removed at once").isEmpty();
        agent.close();
        return;
      }
      agent.sync(); // the agent's sync in the instant of the deletion
      // the exit: on SIGTERM after stopAfter, else SIGKILL at the end of the grace period (at least 2 s)
      Instant kill = deleted.plusSeconds(Math.max(grace, PodRuntime.MINIMUM_GRACE_PERIOD_SECONDS));
      Instant own = stopAfter < 0 ? null : deleted.plusSeconds(stopAfter);
      Instant second = secondAfter < 0 ? null : deleted.plusSeconds(secondAfter);
      boolean secondShortens = second != null && secondGrace < grace;
      Instant expected = exit(own, kill);
      int code = own != null && own.isBefore(kill) ? (cleanExit ? 0 : 143) : 137;
      if (secondShortens && second.isBefore(expected)) {
        if (secondGrace == 0) {
          expected = second; // the final deletion removes it
          code = -1;
        } else {
          // BeforeDelete: a deadline that would fall before now becomes now, with grace period 1
          long period = deleted.plusSeconds(secondGrace).isBefore(second) ? 1 : secondGrace;
          Instant shorter = second.plusSeconds(Math.max(period, PodRuntime.MINIMUM_GRACE_PERIOD_SECONDS));
          if (shorter.isBefore(expected)) {
            expected = shorter;
            code = 137;
          }
        }
      }
      Instant end = deleted.plusSeconds(100);
      boolean secondDone = second == null;
      while (clock.now().isBefore(end) && store.get(Pod.class, "default", "p").isPresent()) {
        if (!secondDone && !clock.now().isBefore(second)) {
          secondDone = true;
          store.delete(Pod.class, "default", "p", DeleteOptions.gracePeriod(secondGrace));
          agent.sync();
          continue;
        }
        Instant next = clock.nextDeadline().orElse(end);
        if (!secondDone && second.isBefore(next)) {
          next = second;
        }
        clock.advanceTo(next.isAfter(end) ? end : next);
        agent.sync();
      }
      assertThat(store.get(Pod.class, "default", "p")).as("removed").isEmpty();
      assertThat(clock.now()).as("removed when its container exited").isEqualTo(expected);
      assertThat(types.get(types.size() - 1)).isEqualTo(WatchEventType.DELETED);
      Pod last = seen.get(seen.size() - 1);
      assertThat(last.status().containerStatuses()).allMatch(s -> s.restartCount() == 0);
      if (code >= 0) {
        assertThat(last.status().containerStatuses().get(0).state().exitCode()).isEqualTo(code);
        assertThat(last.status().phase()).isEqualTo(code == 0 ? PodPhase.Succeeded : PodPhase.Failed);
      }
      agent.close();
    }
  }

  private static Instant exit(@Nullable Instant own, Instant kill) {
    return own != null && own.isBefore(kill) ? own : kill;
  }
}
