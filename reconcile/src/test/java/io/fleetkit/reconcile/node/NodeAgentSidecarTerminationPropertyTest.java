package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Over random pods (one to four sidecars, each ending on SIGTERM at once, after some seconds, or ignoring it; grace
 * periods from 0 to 40 s; a main container exiting 0 or 1 at 10 s), the stop of the sidecars as
 * {@code killContainer} with {@code terminationOrdering} bounds it: no sidecar outlives the grace period plus the 2 s
 * minimum, none restarts once the stop began, the pod stays Running until the last one is gone and is then Succeeded
 * or Failed by its main container alone; and when every sidecar ends on SIGTERM well within the grace period, they
 * exit in reverse spec order.
 */
final class NodeAgentSidecarTerminationPropertyTest {
  private static final long MAIN_EXIT = 10;

  @Property(tries = 200)
  void sidecarStop_boundedByGracePlusMinimum_reverseOrderWhenInTime_podPhaseFollows(@ForAll long seed) {
    Random r = new Random(seed);
    ManualClock clock = ManualClock.atEpoch2026();
    Instant t0 = clock.now();
    int sidecars = 1 + r.nextInt(4);
    long grace = r.nextInt(41);
    int mainCode = r.nextInt(4) == 0 ? 1 : 0;
    Pod.Builder b = Pod.builder().namespace("default").name("p").nodeName("n1").restartPolicy(RestartPolicy.Never)
        .terminationGracePeriodSeconds(grace).annotation(HealthSource.EXIT_AFTER + ".main", String.valueOf(MAIN_EXIT))
        .annotation(HealthSource.EXIT_CODE + ".main", String.valueOf(mainCode));
    long stopSum = 0;
    boolean allEndOnSigterm = true;
    for (int i = 0; i < sidecars; i++) {
      String name = "s" + i;
      b.sidecar(name, "proxy:1", ResourceList.EMPTY);
      int kind = r.nextInt(3);
      if (kind == 1) {
        long after = r.nextInt(20);
        stopSum += after;
        b.annotation(HealthSource.STOP_AFTER + "." + name, String.valueOf(after));
      } else if (kind == 2) {
        allEndOnSigterm = false;
        b.annotation(HealthSource.STOP_AFTER + "." + name, "never");
      }
    }
    b.container("main", "job:1", ResourceList.EMPTY);
    try (ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build()) {
      store.create(Node.builder().name("n1").build());
      NodeAgent agent = NodeAgent.builder(store, clock, "n1").healthSource(HealthSource.fromAnnotations()).build();
      agent.start();
      store.create(b.build());
      Instant end = t0.plusSeconds(MAIN_EXIT + grace + 60);
      agent.sync();
      while (clock.now().isBefore(end)) {
        Pod p = store.require(Pod.class, "default", "p");
        boolean anySidecarRunning = p.status().initContainerStatuses().stream()
            .anyMatch(s -> s.state().type() == ContainerStateType.Running);
        if (!clock.now().isBefore(t0.plusSeconds(MAIN_EXIT))) {
          assertThat(p.status().phase()).as("at %s", clock.now())
              .isEqualTo(anySidecarRunning ? PodPhase.Running : mainCode == 0 ? PodPhase.Succeeded : PodPhase.Failed);
        }
        Instant next = clock.nextDeadline().filter(d -> d.isBefore(end)).orElse(end);
        clock.advanceTo(next);
        agent.sync();
      }
      List<ContainerStatus> statuses = store.require(Pod.class, "default", "p").status().initContainerStatuses();
      Instant stopStart = t0.plusSeconds(MAIN_EXIT);
      Instant previous = null;
      for (int i = statuses.size() - 1; i >= 0; i--) {
        ContainerStatus s = statuses.get(i);
        assertThat(s.state().type()).isEqualTo(ContainerStateType.Terminated);
        assertThat(s.restartCount()).as("%s restarted", s.name()).isZero();
        Instant finished = s.state().finishedAt();
        assertThat(finished).isNotNull();
        assertThat(finished).as("%s outlives grace + 2 s", s.name())
            .isBeforeOrEqualTo(stopStart.plusSeconds(grace + PodRuntime.MINIMUM_GRACE_PERIOD_SECONDS));
        assertThat(finished).isAfterOrEqualTo(stopStart);
        // every wait for a turn ends before the grace period runs out: each sidecar exits after the one behind it
        if (allEndOnSigterm && grace > 0 && stopSum < grace && previous != null) {
          assertThat(finished).as("%s after the sidecars behind it", s.name()).isAfterOrEqualTo(previous);
        }
        previous = finished;
      }
      agent.close();
    }
  }
}
