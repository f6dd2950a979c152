package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Lifecycle;
import io.fleetkit.api.core.LifecycleHandler;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ProbeHandler;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Over random {@code preStop} hooks (a sleep within the pod's grace period, or an exec running 0 to 60 s), grace
 * periods (1 to 40 s), an optional shorter or longer grace period asked at deletion and random SIGTERM handlers: the
 * pod stays until the hook ends or the grace period is used up, and is removed exactly when {@code killContainer}
 * says (the hook, at most the grace period; then SIGTERM with the seconds left, at least 2, and SIGKILL when they run
 * out), never later than the grace period plus 2 s, and its container is never restarted.
 */
final class NodeAgentLifecycleHooksPropertyTest {

  @Property(tries = 200)
  void deletedPodWithPreStop_removedWithinGracePeriodPlusMinimum(
      @ForAll boolean sleep, @ForAll @IntRange(min = 0, max = 60) int hookSeconds,
      @ForAll @IntRange(min = 1, max = 40) int grace, @ForAll @IntRange(min = 0, max = 40) int override,
      @ForAll @IntRange(min = -1, max = 40) int stopAfter) {
    ManualClock clock = ManualClock.atEpoch2026();
    Instant t0 = clock.now();
    long hook = sleep ? hookSeconds % (grace + 1) : hookSeconds; // a sleep is valid up to the pod's grace period
    LifecycleHandler preStop = sleep ? new LifecycleHandler.Sleep(hook) : new ProbeHandler.Exec(List.of("drain"));
    try (ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build()) {
      store.create(Node.builder().name("n1").build());
      NodeAgent agent = NodeAgent.builder(store, clock, "n1").build();
      agent.start();
      List<Pod> seen = new ArrayList<>();
      store.watch(Pod.class, "", (WatchEvent<Pod> e) -> seen.add(e.object()));
      store.create(Pod.builder().namespace("default").name("p").restartPolicy(RestartPolicy.Always).nodeName("n1")
          .terminationGracePeriodSeconds(grace)
          .annotation(HealthSource.HOOK_SECONDS, Long.toString(hook))
          .annotation(HealthSource.STOP_AFTER, stopAfter < 0 ? "never" : Integer.toString(stopAfter))
          .container(Container.of("main", "web:1", ResourceList.EMPTY).withLifecycle(Lifecycle.preStop(preStop)))
          .build());
      agent.sync();
      clock.advanceTo(t0.plusSeconds(10));
      agent.sync();

      Instant deleted = clock.now();
      if (override == 0) {
        store.delete(Pod.class, "default", "p");
      } else {
        store.delete(Pod.class, "default", "p", DeleteOptions.gracePeriod(override));
      }
      long g = override == 0 ? grace : override;
      agent.sync();
      long waited = Math.min(hook, g);
      long left = Math.max(g - waited, PodRuntime.MINIMUM_GRACE_PERIOD_SECONDS);
      long expected = waited + (stopAfter >= 0 && stopAfter < left ? stopAfter : left);

      Instant end = deleted.plusSeconds(200);
      while (clock.now().isBefore(end) && store.get(Pod.class, "default", "p").isPresent()) {
        if (Duration.between(deleted, clock.now()).getSeconds() < waited) {
          assertThat(store.get(Pod.class, "default", "p").orElseThrow().status().containerStatuses().get(0)
              .state().finishedAt()).as("running while the hook runs").isNull();
        }
        Instant next = clock.nextDeadline().orElse(end);
        clock.advanceTo(next.isAfter(end) ? end : next);
        agent.sync();
      }
      assertThat(store.get(Pod.class, "default", "p")).as("removed").isEmpty();
      long removedAfter = Duration.between(deleted, clock.now()).getSeconds();
      assertThat(removedAfter).isEqualTo(expected);
      assertThat(removedAfter).isLessThanOrEqualTo(g + PodRuntime.MINIMUM_GRACE_PERIOD_SECONDS);
      ContainerStatus last = seen.get(seen.size() - 1).status().containerStatuses().get(0);
      assertThat(last.restartCount()).isZero();
      assertThat(last.state().exitCode()).isEqualTo(stopAfter >= 0 && stopAfter < left
          ? ContainerScript.SIGTERM_EXIT_CODE : ContainerScript.KILLED_EXIT_CODE);
      agent.close();
    }
  }
}
