package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.PodManagementPolicy;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetSpec;
import io.fleetkit.api.batch.CompletionMode;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.policy.PodDisruptionBudgetSpec;
import io.fleetkit.api.policy.PodDisruptionBudgetStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.controllers.internal.StatefulSetPods;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Convergence of the workload controllers under random disturbance: random scale changes and random pod failures
 * (a pod turning Failed, or being deleted) while a hand-operated kubelet runs and readies pods; once the
 * disturbance stops, each controller must reach its desired state (StatefulSet: pods NAME-0..N-1 all ready, or
 * upstream's OrderedReady stall when two Failed pods are condemned; Job:
 * Complete with every completion; PodDisruptionBudget: the status the formulas give for the final pods).
 */
final class WorkloadConvergencePropertyTest {
  private static final PodSpec SPEC = PodSpec.builder().container("c", "img", ResourceList.EMPTY).build();

  /** Pending -> Running -> Ready, one step per call, for every active pod. */
  private static void kubelet(ObjectStore store, ManualClock clock) {
    Sim.finishTerminating(store); // the deleted pods' containers stop: they go
    for (Pod p : store.list(Pod.class, "ns").items()) {
      if (!ActivePods.isActive(p)) {
        continue;
      }
      if (p.status().phase() == PodPhase.Pending) {
        Sim.run(store, p, "node-1");
      } else if (p.status().phase() == PodPhase.Running && !p.isReady()) {
        Sim.ready(store, clock, p, p.spec().nodeName());
      }
    }
  }

  /** Fails or deletes one random active pod (the disturbance). */
  private static void disturb(ObjectStore store, Random random, ManualClock clock) {
    List<Pod> active = store.list(Pod.class, "ns").items().stream().filter(ActivePods::isActive).toList();
    if (active.isEmpty()) {
      return;
    }
    Pod victim = active.get(random.nextInt(active.size()));
    if (random.nextBoolean()) {
      store.delete(Pod.class, "ns", victim.metadata().name());
    } else {
      store.updateStatus(victim.withStatus(victim.status().withPhase(PodPhase.Failed).withContainerStatuses(
          List.of(new ContainerStatus("c", false, 0, ContainerState.terminated(1, "Error", clock.now()))))));
    }
  }

  /** The sample that reaches upstream's OrderedReady stall: two Failed pods condemned by the scale to zero. */
  @Example
  void statefulSet_twoFailedCondemnedPods_orderedReadyStallsAsUpstream() {
    statefulSet_randomScalesAndFailures_convergesToOrdinalsAllReady(138, false, 0);
  }

  @Property(tries = 15)
  void statefulSet_randomScalesAndFailures_convergesToOrdinalsAllReady(
      @ForAll @IntRange(min = 0, max = 10_000) int seed, @ForAll boolean parallel,
      @ForAll @IntRange(min = 0, max = 5) int finalReplicas) {
    Random random = new Random(seed);
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = Sim.store(clock);
        StatefulSetController c = StatefulSetController.builder(store).clock(clock).stepping().build()) {
      c.start().join();
      StatefulSet set = StatefulSet.builder().namespace("ns").name("db").replicas(random.nextInt(5))
          .matchLabels(Map.of("app", "db")).podSpec(SPEC)
          .podManagementPolicy(parallel ? PodManagementPolicy.Parallel : PodManagementPolicy.OrderedReady)
          .build();
      store.create(set);
      for (int step = 0; step < 40; step++) {
        c.runUntilIdle();
        int r = random.nextInt(10);
        if (r == 0) {
          StatefulSet cur = store.require(StatefulSet.class, "ns", "db");
          store.update(cur.withSpec(cur.spec().withReplicas(random.nextInt(6))));
        } else if (r <= 2) {
          disturb(store, random, clock);
        }
        c.runUntilIdle();
        if (random.nextBoolean()) {
          kubelet(store, clock);
        }
        clock.advance(Duration.ofSeconds(1));
      }
      StatefulSet cur = store.require(StatefulSet.class, "ns", "db");
      // Upstream's processCondemned (stateful_set_control.go) deletes an unavailable condemned pod in OrderedReady
      // mode only when it is the first unavailable one (the lowest ordinal): with two Failed pods past the final
      // count, the higher one waits for ever. Nothing fails pods after this point, so that stall is decided here.
      List<Integer> failedCondemned = store.list(Pod.class, "ns").items().stream()
          .filter(p -> p.status().phase() == PodPhase.Failed && p.metadata().deletionTimestamp() == null)
          .map(p -> Integer.parseInt(p.metadata().name().substring("db-".length())))
          .filter(ordinal -> ordinal >= finalReplicas).sorted().toList();
      int stallsAt = !parallel && failedCondemned.size() >= 2 ? failedCondemned.get(failedCondemned.size() - 1) : -1;
      List<String> staying = store.list(Pod.class, "ns").items().stream()
          .filter(p -> p.metadata().deletionTimestamp() == null).map(p -> p.metadata().name())
          .filter(name -> Integer.parseInt(name.substring("db-".length())) >= finalReplicas
              && Integer.parseInt(name.substring("db-".length())) <= stallsAt)
          .toList();
      store.update(cur.withSpec(cur.spec().withReplicas(finalReplicas)));
      for (int step = 0; step < 3 * finalReplicas + 20; step++) {
        c.runUntilIdle();
        kubelet(store, clock);
        clock.advance(Duration.ofSeconds(1));
      }
      c.runUntilIdle();
      List<Pod> pods = store.list(Pod.class, "ns").items();
      if (stallsAt >= 0) {
        // the pods above the highest Failed one went; it and every condemned pod below it stay
        List<String> expected = new ArrayList<>(staying);
        IntStream.range(0, finalReplicas).mapToObj(i -> "db-" + i).forEach(expected::add);
        assertThat(pods).extracting(p -> p.metadata().name()).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(pods).filteredOn(p -> p.metadata().name().equals("db-" + stallsAt))
            .allMatch(p -> p.status().phase() == PodPhase.Failed);
        assertThat(pods).filteredOn(p -> Integer.parseInt(p.metadata().name().substring(3)) < finalReplicas)
            .allMatch(StatefulSetPods::isRunningAndReady);
        return;
      }
      assertThat(pods).extracting(p -> p.metadata().name()).containsExactlyInAnyOrderElementsOf(
          IntStream.range(0, finalReplicas).mapToObj(i -> "db-" + i).toList());
      assertThat(pods).allMatch(StatefulSetPods::isRunningAndReady);
      StatefulSet done = store.require(StatefulSet.class, "ns", "db");
      assertThat(done.status().readyReplicas()).isEqualTo(finalReplicas);
      assertThat(done.status().replicas()).isEqualTo(finalReplicas);
    }
  }

  @Property(tries = 25)
  void job_randomParallelismAndFailures_completesEveryCompletion(
      @ForAll @IntRange(min = 0, max = 10_000) int seed, @ForAll boolean indexed,
      @ForAll @IntRange(min = 1, max = 6) int completions, @ForAll @IntRange(min = 1, max = 4) int parallelism) {
    Random random = new Random(seed);
    ManualClock clock = ManualClock.atEpoch2026();
    int failuresToInject = random.nextInt(4);
    try (ObjectStore store = Sim.store(clock);
        JobController c = JobController.builder(store).clock(clock).stepping().build()) {
      c.start().join();
      store.create(Job.builder().namespace("ns").name("calc").parallelism(parallelism).completions(completions)
          .completionMode(indexed ? CompletionMode.Indexed : CompletionMode.NonIndexed)
          .backoffLimit(failuresToInject + 2)
          .podSpec(PodSpec.builder().container("c", "img", ResourceList.EMPTY).restartPolicy(RestartPolicy.Never)
              .build())
          .build());
      int injected = 0;
      for (int step = 0; step < 400 && !store.require(Job.class, "ns", "calc").status().isFinished(); step++) {
        c.runUntilIdle();
        if (random.nextInt(8) == 0) {
          Job cur = store.require(Job.class, "ns", "calc");
          store.update(cur.withSpec(cur.spec().withParallelism(1 + random.nextInt(4))));
        }
        for (Pod p : store.list(Pod.class, "ns").items()) {
          if (!ActivePods.isActive(p) || random.nextInt(3) != 0) {
            continue;
          }
          boolean fail = injected < failuresToInject && random.nextInt(3) == 0;
          if (fail) {
            injected++;
          }
          store.updateStatus(p.withStatus(p.status().withPhase(fail ? PodPhase.Failed : PodPhase.Succeeded)
              .withContainerStatuses(List.of(new ContainerStatus("c", false, 0,
                  ContainerState.terminated(fail ? 1 : 0, "", clock.now()))))));
        }
        c.runUntilIdle();
        clock.advance(Duration.ofSeconds(5));
      }
      Job done = store.require(Job.class, "ns", "calc");
      assertThat(done.status().condition(JobCondition.COMPLETE)).as("%s", done.status()).isNotNull();
      assertThat(done.status().succeeded()).isEqualTo(completions);
      assertThat(done.status().failed()).isEqualTo(injected);
      assertThat(done.status().active()).isZero();
      if (indexed) {
        assertThat(done.status().completedIndexes())
            .isEqualTo(completions == 1 ? "0" : completions == 2 ? "0,1" : "0-" + (completions - 1));
      }
    }
  }

  @Property(tries = 12)
  void disruptionBudget_randomScalesReadinessAndFailures_statusMatchesTheFormulas(
      @ForAll @IntRange(min = 0, max = 10_000) int seed, @ForAll boolean useMaxUnavailable,
      @ForAll @IntRange(min = 0, max = 100) int percent) {
    Random random = new Random(seed);
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = Sim.store(clock);
        ReplicaSetController rsc = ReplicaSetController.builder(store).clock(clock).stepping().build();
        DisruptionController dc = DisruptionController.builder(store).clock(clock).stepping().build()) {
      rsc.start().join();
      dc.start().join();
      IntOrPercent bound = IntOrPercent.ofPercent(percent);
      store.create(PodDisruptionBudget.of(ObjectMeta.of("ns", "budget"), useMaxUnavailable
          ? PodDisruptionBudgetSpec.maxUnavailable(LabelSelector.of(Map.of("app", "web")), bound)
          : PodDisruptionBudgetSpec.minAvailable(LabelSelector.of(Map.of("app", "web")), bound)));
      store.create(ReplicaSet.builder().namespace("ns").name("web").replicas(1 + random.nextInt(6))
          .matchLabels(Map.of("app", "web")).podSpec(SPEC).build());
      for (int step = 0; step < 30; step++) {
        rsc.runUntilIdle();
        dc.runUntilIdle();
        int r = random.nextInt(6);
        if (r == 0) {
          ReplicaSet cur = store.require(ReplicaSet.class, "ns", "web");
          store.update(cur.withSpec(cur.spec().withReplicas(random.nextInt(8))));
        } else if (r == 1) {
          disturb(store, random, clock);
        } else {
          kubelet(store, clock);
        }
        rsc.runUntilIdle();
        dc.runUntilIdle();
        clock.advance(Duration.ofSeconds(1));
      }
      kubelet(store, clock);
      rsc.runUntilIdle();
      kubelet(store, clock);
      kubelet(store, clock);
      rsc.runUntilIdle();
      dc.runUntilIdle();
      int replicas = store.require(ReplicaSet.class, "ns", "web").spec().replicas();
      List<Pod> pods = store.list(Pod.class, "ns").items();
      long ready = pods.stream().filter(p -> ActivePods.isActive(p) && p.isReady()).count();
      assertThat(ready).as("the ReplicaSet converged").isEqualTo(replicas);
      int desired = useMaxUnavailable ? Math.max(0, replicas - bound.scaledValue(replicas, true))
          : bound.scaledValue(replicas, true);
      long healthy = pods.stream().filter(Pod::isReady).count();
      PodDisruptionBudgetStatus s = store.require(PodDisruptionBudget.class, "ns", "budget").status();
      assertThat(s.expectedPods()).isEqualTo(replicas);
      assertThat(s.desiredHealthy()).isEqualTo(desired);
      assertThat(s.currentHealthy()).isEqualTo((int) healthy);
      assertThat(s.disruptionsAllowed()).isEqualTo(replicas == 0 ? 0 : (int) Math.max(0, healthy - desired));
    }
  }
}
