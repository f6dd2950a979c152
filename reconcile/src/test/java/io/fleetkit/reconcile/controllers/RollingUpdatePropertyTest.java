package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.DeploymentStrategy;
import io.fleetkit.api.apps.RollingUpdateDeployment;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.store.Watch;
import io.fleetkit.reconcile.controllers.internal.DeploymentMath;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * During a rolling update with random maxSurge/maxUnavailable (counts and percentages) and random readiness delays
 * of new pods, at every single store write: ready pods never drop below {@code replicas - maxUnavailable} and active
 * pods never exceed {@code replicas + maxSurge}; and the rollout completes.
 */
final class RollingUpdatePropertyTest {

  record Bound(int value, boolean percent) {
    IntOrPercent toIntOrPercent() {
      return new IntOrPercent(value, percent);
    }
  }

  @Provide
  Arbitrary<Bound> bounds() {
    return Arbitraries.oneOf(
        Arbitraries.integers().between(0, 4).map(v -> new Bound(v, false)),
        Arbitraries.integers().between(0, 100).map(v -> new Bound(v, true)));
  }

  @Property(tries = 60)
  void rollingUpdate_randomBoundsAndDelays_availabilityAndSurgeHeldAtEveryWrite(
      @ForAll("bounds") Bound surge, @ForAll("bounds") Bound unavailable,
      @ForAll @net.jqwik.api.constraints.IntRange(min = 1, max = 8) int replicas,
      @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 1000) int seed) {
    runRollout(surge, unavailable, replicas, seed, -1);
  }

  /** The same with a rollover: a third template arrives at a random second while the second rolls out. */
  @Property(tries = 40)
  void rollover_randomBoundsAndDelays_availabilityAndSurgeHeldAtEveryWrite(
      @ForAll("bounds") Bound surge, @ForAll("bounds") Bound unavailable,
      @ForAll @net.jqwik.api.constraints.IntRange(min = 1, max = 8) int replicas,
      @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 1000) int seed,
      @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 30) int rolloverAt) {
    runRollout(surge, unavailable, replicas, seed, rolloverAt);
  }

  private void runRollout(Bound surge, Bound unavailable, int replicas, int seed, int rolloverAt) {
    Assume.that(surge.value() != 0 || unavailable.value() != 0);
    Assume.that(!unavailable.percent() || unavailable.value() <= 100);
    RollingUpdateDeployment ru = new RollingUpdateDeployment(surge.toIntOrPercent(),
        unavailable.toIntOrPercent());
    Deployment d = Deployment.builder().namespace("ns").name("web").replicas(replicas)
        .matchLabels(Map.of("app", "web")).podSpec(Cluster.podSpec("nginx:1"))
        .strategy(DeploymentStrategy.rollingUpdate(ru)).build();
    int maxSurge = DeploymentMath.maxSurge(d.spec());
    int maxUnavailable = DeploymentMath.maxUnavailable(d.spec());
    Random random = new Random(seed);
    try (Cluster c = new Cluster()) {
      c.store.create(d);
      c.settle();
      c.readyAll();
      c.settle();
      List<String> violations = new ArrayList<>();
      Watch watch = c.store.watch(Pod.class, c.store.resourceVersion(), event -> {
        List<Pod> pods = c.pods();
        long active = pods.stream().filter(ActivePods::isActive).count();
        long ready = pods.stream().filter(p -> ActivePods.isActive(p) && p.isReady()).count();
        if (active > replicas + maxSurge) {
          violations.add("active " + active + " > " + replicas + "+" + maxSurge + " at " + event);
        }
        if (ready < replicas - maxUnavailable) {
          violations.add("ready " + ready + " < " + replicas + "-" + maxUnavailable + " at " + event);
        }
      });
      try {
        c.setImage("web", "nginx:2");
        Map<String, Instant> readyAt = new HashMap<>();
        String finalImage = rolloverAt >= 0 ? "nginx:3" : "nginx:2";
        for (int second = 0; second < 600; second++) {
          if (second == rolloverAt) {
            c.setImage("web", "nginx:3");
          }
          c.settle();
          for (Pod p : c.pods()) {
            if (ActivePods.isActive(p) && !p.isReady()) {
              Instant due = readyAt.computeIfAbsent(p.metadata().name(),
                  k -> c.clock.now().plusSeconds(random.nextInt(20)));
              if (!due.isAfter(c.clock.now())) {
                Sim.ready(c.store, c.clock, p, "node-" + random.nextInt(3));
              }
            }
          }
          c.settle();
          if (second > rolloverAt && done(c, replicas, finalImage)) {
            break;
          }
          c.clock.advance(Duration.ofSeconds(1));
        }
        assertThat(violations).isEmpty();
        assertThat(done(c, replicas, finalImage)).as("rollout completed").isTrue();
      } finally {
        watch.close();
      }
    }
  }

  private static boolean done(Cluster c, int replicas, String image) {
    List<Pod> active = c.pods().stream().filter(ActivePods::isActive).toList();
    return active.size() == replicas && active.stream().allMatch(p -> p.isReady()
        && p.spec().containers().get(0).image().equals(image));
  }
}
