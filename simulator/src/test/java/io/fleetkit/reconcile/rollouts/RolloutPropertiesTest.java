package io.fleetkit.reconcile.rollouts;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RolloutPhase;
import io.fleetkit.api.rollouts.RolloutSpec;
import io.fleetkit.reconcile.controllers.ActivePods;
import io.fleetkit.reconcile.node.HealthSource;
import io.fleetkit.reconcile.rollouts.internal.CanaryMath;
import io.fleetkit.reconcile.rollouts.internal.CanaryView;
import io.fleetkit.simulator.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Invariants of rollouts in whole simulations. */
final class RolloutPropertiesTest {

  @Provide
  Arbitrary<IntOrPercent> bound() {
    return Arbitraries.oneOf(Arbitraries.integers().between(0, 3).map(IntOrPercent::of),
        Arbitraries.of(0, 10, 25, 50).map(IntOrPercent::ofPercent));
  }

  private static int ready(Simulation sim) {
    return RolloutSimulationTest.readyPods(sim, "shop:1").size() + RolloutSimulationTest.readyPods(sim, "shop:2")
        .size();
  }

  /**
   * During any canary (random replicas, bounds, weights and readiness delay), ready pods never drop below
   * {@code replicas - maxUnavailable}, the canary's traffic weight stays within 0..100 (so stable + canary = 100),
   * and the rollout ends Healthy with every pod on the new version.
   */
  @Property(tries = 10)
  void canary_anyBoundsAndWeights_neverBelowMinAvailable_andCompletes(
      @ForAll @IntRange(min = 1, max = 8) int replicas, @ForAll("bound") IntOrPercent surge,
      @ForAll("bound") IntOrPercent unavailable,
      @ForAll @Size(min = 1, max = 4) List<@IntRange(min = 1, max = 99) Integer> weights,
      @ForAll @IntRange(min = 0, max = 20) int readySeconds, @ForAll @IntRange(min = 0, max = 1000) int seed) {
    Assume.that(surge.value() != 0 || unavailable.value() != 0);
    List<CanaryStep> steps = new ArrayList<>();
    for (int w : weights) {
      steps.add(new CanaryStep.SetWeight(w));
      steps.add(CanaryStep.Pause.of(Duration.ofSeconds(10)));
    }
    CanaryStrategy c = new CanaryStrategy(steps, surge, unavailable, null, null, null, null, false, null, null);
    int maxUnavailable = CanaryMath.maxUnavailable(new CanaryView(replicas, steps, 0, surge, unavailable, false,
        false, null, null, false, false, "", ""));
    try (Simulation sim = Simulation.builder().objects(RolloutSimulationTest.nodes(3)).seed(seed).podEvents(false)
        .object(RolloutSimulationTest.canary(replicas, c)).build()) {
      assertThat(sim.runUntil(s -> ready(s) == replicas, Duration.ofMinutes(2))).isTrue();
      RolloutSimulationTest.update(sim, "shop:2", Map.of(HealthSource.READY_AFTER, String.valueOf(readySeconds)));
      int[] min = {Integer.MAX_VALUE};
      boolean done = sim.runUntil(s -> {
        min[0] = Math.min(min[0], ready(s));
        Rollout r = RolloutSimulationTest.rollout(s);
        assertThat(r.status().canaryWeight()).isBetween(0, 100);
        List<Pod> active = s.store().list(Pod.class, "default", ActivePods::isActive).items();
        return r.status().phase() == RolloutPhase.Healthy
            && RolloutSimulationTest.readyPods(s, "shop:2").size() == replicas && active.size() == replicas;
      }, Duration.ofMinutes(30));
      assertThat(done).as("rollout completes").isTrue();
      assertThat(min[0]).as("min ready during rollout").isGreaterThanOrEqualTo(replicas - maxUnavailable);
    }
  }

  /**
   * Under random faults (a node lost mid-rollout, a new version that never turns ready) a rollout ends Healthy or
   * Degraded within its progress deadline's reach, never stuck Progressing.
   */
  @Property(tries = 8)
  void faults_endHealthyOrDegraded(@ForAll @IntRange(min = 2, max = 6) int replicas,
      @ForAll boolean brokenVersion, @ForAll boolean loseNode, @ForAll boolean deadlineAbort,
      @ForAll @IntRange(min = 0, max = 1000) int seed) {
    CanaryStrategy c = CanaryStrategy.of(new CanaryStep.SetWeight(50), CanaryStep.Pause.of(Duration.ofSeconds(20)))
        .withSurge(IntOrPercent.of(1), IntOrPercent.of(1));
    Rollout r0 = RolloutSimulationTest.canary(replicas, c);
    r0 = r0.withSpec(new RolloutSpec(replicas, r0.spec().selector(), r0.spec().template(), r0.spec().strategy(), 0,
        10, 120, deadlineAbort, false));
    Simulation.Builder b = Simulation.builder().objects(RolloutSimulationTest.nodes(3)).seed(seed).podEvents(false)
        .object(r0);
    if (loseNode) {
      b.failNode("node-1", Duration.ofSeconds(20));
    }
    try (Simulation sim = b.build()) {
      sim.runFor(Duration.ofSeconds(10));
      RolloutSimulationTest.update(sim, "shop:2", brokenVersion ? Map.of(HealthSource.READY_AFTER, "never")
          : Map.of(HealthSource.READY_AFTER, "3"));
      boolean settled = sim.runUntil(s -> {
        RolloutPhase p = RolloutSimulationTest.rollout(s).status().phase();
        return p == RolloutPhase.Degraded || (p == RolloutPhase.Healthy
            && RolloutSimulationTest.rollout(s).status().stableRs().equals(
                RolloutSimulationTest.rollout(s).status().currentPodHash()));
      }, Duration.ofMinutes(30));
      assertThat(settled).as("ends Healthy or Degraded").isTrue();
      if (brokenVersion) {
        assertThat(RolloutSimulationTest.rollout(sim).status().phase()).isEqualTo(RolloutPhase.Degraded);
      }
    }
  }

  /**
   * A canary with traffic routing (random replicas, weights, readiness delay, and an abort at a random moment or
   * none): at every change of the HTTPRoute the stable and canary weights sum to 100 and the canary gets traffic only
   * while it has an available pod; the rollout ends Healthy with the route back on stable (100/0), or, aborted,
   * Degraded with the route back on stable too.
   */
  @Property(tries = 8)
  void routedCanary_routeWeightsSumTo100_endOnStable(@ForAll @IntRange(min = 1, max = 8) int replicas,
      @ForAll @Size(min = 1, max = 3) List<@IntRange(min = 1, max = 99) Integer> weights,
      @ForAll @IntRange(min = 0, max = 15) int readySeconds, @ForAll @IntRange(min = 0, max = 90) int abortAt,
      @ForAll boolean abort, @ForAll @IntRange(min = 0, max = 1000) int seed) {
    List<CanaryStep> steps = new ArrayList<>();
    for (int w : weights) {
      steps.add(new CanaryStep.SetWeight(w));
      steps.add(CanaryStep.Pause.of(Duration.ofSeconds(10)));
    }
    try (Simulation sim = Simulation.builder().objects(RolloutSimulationTest.nodes(3)).seed(seed).podEvents(false)
        .object(RolloutTrafficRoutingTest.service("web-stable")).object(RolloutTrafficRoutingTest.service("web-canary"))
        .object(RolloutTrafficRoutingTest.route())
        .object(RolloutTrafficRoutingTest.routed(replicas, steps.toArray(CanaryStep[]::new))).build()) {
      assertThat(sim.runUntil(s -> RolloutSimulationTest.rollout(s).status().phase() == RolloutPhase.Healthy,
          Duration.ofMinutes(2))).isTrue();
      List<String> violations = new ArrayList<>();
      try (var w = sim.store().watch(io.fleetkit.api.gateway.HTTPRoute.class, "0", e -> {
        var refs = e.object().spec().rules().get(0).backendRefs();
        int canary = refs.get(1).weight();
        if (refs.get(0).weight() + canary != 100) {
          violations.add("weights " + refs);
        }
        Rollout r = RolloutSimulationTest.rollout(sim);
        int available = sim.store().get(io.fleetkit.api.apps.ReplicaSet.class, "default",
            "web-" + r.status().currentPodHash()).map(rs -> rs.status().availableReplicas()).orElse(0);
        if (canary > 0 && available == 0) {
          violations.add("canary weight " + canary + " without an available canary pod at " + sim.elapsed());
        }
      })) {
        RolloutSimulationTest.update(sim, "shop:2", Map.of(HealthSource.READY_AFTER, String.valueOf(readySeconds)));
        if (abort) {
          sim.runFor(Duration.ofSeconds(abortAt));
          RolloutController.abort(sim.store(), "default", "web");
        }
        boolean done = sim.runUntil(s -> {
          Rollout r = RolloutSimulationTest.rollout(s);
          return r.status().phase() == RolloutPhase.Degraded || (r.status().phase() == RolloutPhase.Healthy
              && r.status().stableRs().equals(r.status().currentPodHash()));
        }, Duration.ofMinutes(20));
        sim.runFor(Duration.ofSeconds(30));
        assertThat(done).isTrue();
      }
      assertThat(violations).isEmpty();
      assertThat(sim.store().require(io.fleetkit.api.gateway.HTTPRoute.class, "default", "web-route").spec().rules()
          .get(0).backendRefs()).extracting(io.fleetkit.api.gateway.HTTPBackendRef::weight).containsExactly(100, 0);
      Rollout r = RolloutSimulationTest.rollout(sim);
      assertThat(r.status().canaryWeight()).isZero();
      if (!r.status().abort()) {
        assertThat(r.status().phase()).isEqualTo(RolloutPhase.Healthy);
        assertThat(RolloutSimulationTest.readyPods(sim, "shop:2")).hasSize(replicas);
      }
    }
  }

  /**
   * During any blue-green (random replicas, preview size, readiness delay, auto-promotion delay), the version the
   * active Service selects always has all {@code replicas} pods ready, and the rollout ends Healthy on the new
   * version; a version that never turns ready ends Degraded at its progress deadline with the old one still active.
   */
  @Property(tries = 8)
  void blueGreen_activeVersionAlwaysFullyReady_endsHealthyOrDegraded(@ForAll @IntRange(min = 1, max = 6) int replicas,
      @ForAll @IntRange(min = 0, max = 6) int previewCount, @ForAll @IntRange(min = 0, max = 20) int readySeconds,
      @ForAll @IntRange(min = 0, max = 30) int autoPromotionSeconds, @ForAll boolean broken,
      @ForAll @IntRange(min = 0, max = 1000) int seed) {
    io.fleetkit.api.rollouts.BlueGreenStrategy bg = new io.fleetkit.api.rollouts.BlueGreenStrategy("web-active",
        "web-preview", true, autoPromotionSeconds, 10, previewCount == 0 ? null : Math.min(previewCount, replicas),
        null, null, null);
    Rollout r0 = Rollout.builder().namespace("default").name("web").replicas(replicas)
        .matchLabels(Map.of("app", "web")).template(RolloutSimulationTest.template("shop:1", Map.of())).blueGreen(bg)
        .build();
    r0 = r0.withSpec(new RolloutSpec(replicas, r0.spec().selector(), r0.spec().template(), r0.spec().strategy(), 0,
        10, 120, false, false));
    try (Simulation sim = Simulation.builder().objects(RolloutSimulationTest.nodes(3)).seed(seed).podEvents(false)
        .object(RolloutTrafficRoutingTest.service("web-active")).object(RolloutTrafficRoutingTest.service("web-preview"))
        .object(r0).build()) {
      assertThat(sim.runUntil(s -> RolloutSimulationTest.rollout(s).status().phase() == RolloutPhase.Healthy,
          Duration.ofMinutes(2))).isTrue();
      String v1 = RolloutSimulationTest.rollout(sim).status().activeSelector();
      RolloutSimulationTest.update(sim, "shop:2", Map.of(HealthSource.READY_AFTER,
          broken ? "never" : String.valueOf(readySeconds)));
      for (int i = 0; i < 300; i++) {
        sim.runFor(Duration.ofSeconds(1));
        Rollout r = RolloutSimulationTest.rollout(sim);
        String active = r.status().activeSelector();
        long ready = sim.store().list(Pod.class, "default", (Pod p) -> ActivePods.isActive(p)
            && active.equals(p.metadata().labels().get(Rollout.POD_TEMPLATE_HASH_LABEL))
            && RolloutSimulationTest.ready(p)).items().size();
        assertThat(ready).as("ready pods of the active version at %s", sim.elapsed()).isGreaterThanOrEqualTo(replicas);
        if (r.status().phase() == RolloutPhase.Degraded || (r.status().phase() == RolloutPhase.Healthy
            && active.equals(r.status().currentPodHash()))) {
          break;
        }
      }
      Rollout r = RolloutSimulationTest.rollout(sim);
      if (broken) {
        assertThat(r.status().phase()).isEqualTo(RolloutPhase.Degraded);
        assertThat(r.status().activeSelector()).isEqualTo(v1);
      } else {
        assertThat(r.status().phase()).isEqualTo(RolloutPhase.Healthy);
        assertThat(r.status().activeSelector()).isEqualTo(r.status().currentPodHash()).isNotEqualTo(v1);
      }
    }
  }
}
