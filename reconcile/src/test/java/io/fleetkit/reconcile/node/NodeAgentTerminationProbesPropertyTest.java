package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Lifecycle;
import io.fleetkit.api.core.LifecycleHandler;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ProbeHandler;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Over random readiness probes (period, success and failure thresholds), liveness probes failing during the
 * termination, {@code preStop} sleeps, grace periods, SIGTERM handlers, moments of deletion and applications that
 * turn unready some time after the stop signal (or not at all): while the pod terminates, its {@code Ready}
 * condition is, at every second, what a readiness worker ticking on every point of its grid would make of the
 * application's answers (so skipping the ticks that cannot change anything, and resuming them when the stop changes
 * the answers, loses nothing); no liveness probe kills the container, which runs until SIGTERM and the exit the
 * grace period allows; the pod goes exactly then.
 */
final class NodeAgentTerminationProbesPropertyTest {

  @Property(tries = 200)
  void terminatingPod_readyFollowsReadinessOnItsGrid_livenessNeverKills(
      @ForAll @IntRange(min = 1, max = 15) int period, @ForAll @IntRange(min = 1, max = 3) int successThreshold,
      @ForAll @IntRange(min = 1, max = 5) int failureThreshold, @ForAll @IntRange(min = 1, max = 90) int grace,
      @ForAll @IntRange(min = -30, max = 90) int preStopSeed, @ForAll @IntRange(min = -1, max = 100) int stopAfter,
      @ForAll @IntRange(min = -5, max = 40) int failsAfterStopSeed, @ForAll @IntRange(min = 0, max = 20) int markTicks,
      @ForAll @IntRange(min = -5, max = 14) int markOffset, @ForAll @IntRange(min = 1, max = 12) int livenessPeriod,
      @ForAll @IntRange(min = 0, max = 60) int livenessAfter) {
    // the seeds favour the boundaries: no hook, an application failing the moment it gets SIGTERM, a deletion at the
    // moment of a readiness tick
    int preStop = Math.max(preStopSeed, 0) % (grace + 1); // a sleep is valid up to the pod's grace period
    int failsAfterStop = failsAfterStopSeed < -2 ? -1 : Math.max(failsAfterStopSeed, 0);
    int mark = markTicks * period + Math.max(markOffset, 0) % period;
    ManualClock clock = ManualClock.atEpoch2026();
    Instant t0 = clock.now();
    Probe readiness = Probe.builder(ProbeHandler.HttpGet.of("/ready", 8080)).periodSeconds(period)
        .successThreshold(successThreshold).failureThreshold(failureThreshold).build();
    Probe liveness = Probe.builder(ProbeHandler.TcpSocket.of(8080)).periodSeconds(livenessPeriod).failureThreshold(1)
        .build();
    Container web = Container.of("web", "shop:1", ResourceList.EMPTY).withProbes(liveness, readiness, null);
    if (preStop > 0) {
      web = web.withLifecycle(Lifecycle.preStop(new LifecycleHandler.Sleep(preStop)));
    }
    Pod.Builder pod = Pod.builder().namespace("default").name("p").restartPolicy(RestartPolicy.Always)
        .nodeName("n1").terminationGracePeriodSeconds(grace).container(web)
        .annotation(HealthSource.LIVENESS_FAILS_AFTER, Integer.toString(mark + 1 + livenessAfter))
        .annotation(HealthSource.STOP_AFTER, stopAfter < 0 ? "never" : Integer.toString(stopAfter));
    if (failsAfterStop >= 0) {
      pod.annotation(HealthSource.READINESS_FAILS_AFTER_STOP, Integer.toString(failsAfterStop));
    }
    try (ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build()) {
      store.create(Node.builder().name("n1").build());
      NodeAgent agent = NodeAgent.builder(store, clock, "n1").build();
      agent.start();
      List<Pod> seen = new ArrayList<>();
      store.watch(Pod.class, "", (WatchEvent<Pod> e) -> seen.add(e.object()));
      store.create(pod.build());
      agent.sync();
      runTo(agent, clock, t0.plusSeconds(mark));
      store.delete(Pod.class, "default", "p");
      agent.sync();

      // killContainer: the hook, then SIGTERM with the seconds left (at least 2), SIGKILL when they run out
      long signal = mark + preStop;
      long left = Math.max(grace - preStop, PodRuntime.MINIMUM_GRACE_PERIOD_SECONDS);
      long exit = signal + (stopAfter >= 0 && stopAfter < left ? stopAfter : left);
      boolean[] expectedReady = expectedReadiness(period, successThreshold, failureThreshold, mark,
          failsAfterStop < 0 ? -1 : signal + failsAfterStop, exit);
      for (long s = mark; s < exit; s++) {
        runTo(agent, clock, t0.plusSeconds(s));
        Pod p = store.get(Pod.class, "default", "p").orElseThrow(() -> new AssertionError("gone before its exit"));
        ContainerStatus c = p.status().containerStatuses().get(0);
        assertThat(c.restartCount()).as("no kill restarts it").isZero();
        assertThat(c.state().finishedAt()).as("running at %s", s).isNull();
        PodCondition ready = p.status().condition(PodCondition.READY);
        assertThat(ready != null && ready.status() == ConditionStatus.True).as("Ready at %s", s)
            .isEqualTo(expectedReady[(int) s]);
        assertThat(c.ready()).isEqualTo(expectedReady[(int) s]);
      }
      runTo(agent, clock, t0.plusSeconds(exit));
      assertThat(store.get(Pod.class, "default", "p")).as("removed when its container exits").isEmpty();
      ContainerStatus last = seen.get(seen.size() - 1).status().containerStatuses().get(0);
      assertThat(last.state().finishedAt()).isEqualTo(t0.plusSeconds(exit));
      assertThat(last.state().exitCode()).isEqualTo(stopAfter >= 0 && stopAfter < left
          ? ContainerScript.SIGTERM_EXIT_CODE : ContainerScript.KILLED_EXIT_CODE);
    }
  }

  /**
   * The readiness of the container at each whole second before {@code exit}, from a worker that ticks on every point
   * of its grid (0, period, 2 period...) with the kubelet's thresholds. The application passes until the stop makes
   * it fail ({@code failsFrom}, -1: never); a tick at the moment of deletion happened before it.
   */
  private static boolean[] expectedReadiness(int period, int successThreshold, int failureThreshold, long mark,
      long failsFrom, long exit) {
    boolean[] out = new boolean[(int) exit + 1];
    boolean result = false; // readiness starts at Failure
    boolean last = true; // the worker's zero value for lastResult is Success, with a run of 0
    int run = 0;
    long nextTick = 0;
    for (long s = 0; s <= exit; s++) {
      while (nextTick <= s) {
        boolean answer = failsFrom < 0 || nextTick < failsFrom || nextTick <= mark;
        run = answer == last ? run + 1 : 1;
        last = answer;
        if (run >= (answer ? successThreshold : failureThreshold)) {
          result = answer;
        }
        nextTick += period;
      }
      out[(int) s] = result;
    }
    return out;
  }

  private static void runTo(NodeAgent agent, ManualClock clock, Instant target) {
    agent.sync();
    while (clock.now().isBefore(target)) {
      Optional<Instant> d = clock.nextDeadline().filter(t -> t.isBefore(target));
      clock.advanceTo(d.orElse(target));
      agent.sync();
    }
  }
}
