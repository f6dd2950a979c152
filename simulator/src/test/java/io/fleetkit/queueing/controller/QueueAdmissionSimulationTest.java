package io.fleetkit.queueing.controller;

import static io.fleetkit.queueing.controller.QueueFixtures.NS;
import static io.fleetkit.queueing.controller.QueueFixtures.job;
import static io.fleetkit.queueing.controller.QueueFixtures.quotaReserved;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.controllers.ActivePods;
import io.fleetkit.reconcile.SimulatedController;
import io.fleetkit.simulator.Simulation;
import io.fleetkit.queueing.AdmissionEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * End to end in {@link Simulation}: the queue admission controller with the Job controller, the real scheduler and
 * simulated kubelets on a simulated clock. The ClusterQueue has 4 CPUs of flavor {@code batch} (nodes labelled
 * {@code pool=batch}); the cluster has 12 CPUs, so quota, not capacity, is what holds Jobs back.
 */
final class QueueAdmissionSimulationTest {
  private final AtomicReference<AdmissionEngine> engine = new AtomicReference<>();
  /** Most CPUs held at once by active pods of managed Jobs, checked after every simulation step. */
  private long peakMilliCpu;

  private Simulation simulation(Job... jobs) {
    List<Node> nodes = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      Node.Builder b = Node.builder().name("node-" + i)
          .capacity(ResourceList.builder().put("cpu", "4").put("memory", "8Gi").put("pods", "110").build());
      if (i <= 2) {
        b.label("pool", "batch");
      }
      nodes.add(b.build());
    }
    Simulation.Builder b = Simulation.builder().objects(nodes).objects(List.of(jobs)).withoutDefaultControllers()
        .controller((store, clock, seed) -> {
          AdmissionEngine e = QueueFixtures.engine(clock.asClock(), "4");
          engine.set(e);
          QueueAdmissionController c = QueueAdmissionController.builder(store, e).clock(clock).stepping().build();
          return SimulatedController.of("queue-admission", () -> c.start().join(), c::runUntilIdle, c);
        });
    for (SimulatedController.Factory f : Simulation.defaultControllers()) {
      b.controller(f);
    }
    Simulation sim = b.build();
    track(sim);
    return sim;
  }

  private static List<Pod> activePods(Simulation sim, String job) {
    return sim.store().list(Pod.class, NS, (Pod p) -> ownedBy(p, job) && ActivePods.isActive(p)).items();
  }

  private static boolean ownedBy(Pod p, String job) {
    OwnerReference ref = p.metadata().controllerRef();
    return ref != null && ref.name().equals(job);
  }

  private static Job stored(Simulation sim, String name) {
    return sim.store().require(Job.class, NS, name);
  }

  private boolean track(Simulation sim) {
    long milli = 0;
    for (Pod p : sim.store().list(Pod.class, NS, ActivePods::isActive).items()) {
      milli += p.spec().effectiveRequests().milliCpu();
    }
    peakMilliCpu = Math.max(peakMilliCpu, milli);
    return false;
  }

  private static boolean complete(Job j) {
    return j.status().isFinished() && j.status().succeeded() == j.spec().completions();
  }

  @Test
  void threeJobsOfTwoCpus_inFourCpusOfQuota_twoRunAndTheThirdRunsAfterOneCompletes() {
    try (Simulation sim = simulation(job("a", "lq", 1, "2", 0, true, 30), job("b", "lq", 1, "2", 0, true, 30),
        job("c", "lq", 1, "2", 0, true, 30))) {
      List<String> running = new ArrayList<>();
      List<String> waiting = new ArrayList<>();
      for (String n : List.of("a", "b", "c")) {
        (activePods(sim, n).isEmpty() ? waiting : running).add(n);
      }
      assertThat(running).hasSize(2);
      assertThat(waiting).hasSize(1);
      String third = waiting.get(0);
      assertThat(stored(sim, third).spec().suspend()).isTrue();
      assertThat(quotaReserved(stored(sim, third)).reason()).isEqualTo(QueueLabels.REASON_PENDING);

      assertThat(sim.runUntil(s -> track(s) || !activePods(s, third).isEmpty(), Duration.ofMinutes(5))).isTrue();
      assertThat(running).anySatisfy(n -> assertThat(complete(stored(sim, n))).isTrue());
      assertThat(sim.elapsed()).isGreaterThanOrEqualTo(Duration.ofSeconds(30));
      assertThat(stored(sim, third).metadata().annotations()).containsEntry(QueueLabels.ADMISSION, "cq/cpu=batch");

      assertThat(sim.runUntil(s -> track(s) || List.of("a", "b", "c").stream().allMatch(n -> complete(stored(s, n))),
          Duration.ofMinutes(5))).isTrue();
      assertThat(peakMilliCpu).isEqualTo(4000);
      assertThat(engine.get().admittedCount()).isZero();
      assertThat(engine.get().pendingCount()).isZero();
      assertNodes(sim);
    }
  }

  @Test
  void highPriorityJob_preemptsTheLowPriorityOne_whichRunsAgainAfterwards() {
    try (Simulation sim = simulation(job("low", "lq", 2, "2", 0, true, 600))) {
      assertThat(activePods(sim, "low")).hasSize(2);
      sim.runFor(Duration.ofSeconds(20));
      sim.store().create(job("high", "lq", 1, "4", 100, true, 30));

      assertThat(sim.runUntil(s -> track(s) || !activePods(s, "high").isEmpty(), Duration.ofMinutes(1))).isTrue();
      Job low = stored(sim, "low");
      assertThat(low.spec().suspend()).isTrue();
      assertThat(activePods(sim, "low")).isEmpty();
      assertThat(quotaReserved(low).reason()).isEqualTo(QueueLabels.REASON_PREEMPTED);
      assertThat(low.spec().template().spec().nodeSelector()).isEmpty();

      assertThat(sim.runUntil(s -> track(s) || activePods(s, "low").size() == 2, Duration.ofMinutes(2))).isTrue();
      assertThat(complete(stored(sim, "high"))).isTrue();
      assertThat(sim.runUntil(s -> track(s) || complete(stored(s, "low")), Duration.ofMinutes(15))).isTrue();
      assertThat(peakMilliCpu).isEqualTo(4000);
      assertNodes(sim);
    }
  }

  @Test
  void unknownLocalQueue_staysSuspendedWithAReasonNamingTheQueue() {
    try (Simulation sim = simulation(job("lost", "missing", 1, "1", 0, false, 30))) {
      sim.runFor(Duration.ofMinutes(2));
      Job lost = stored(sim, "lost");
      assertThat(lost.spec().suspend()).isTrue();
      assertThat(lost.status().succeeded()).isZero();
      assertThat(activePods(sim, "lost")).isEmpty();
      assertThat(quotaReserved(lost).message()).isEqualTo("LocalQueue missing doesn't exist in namespace default");
    }
  }

  /** Every pod of a managed Job ran on a node of the flavor (the injected nodeSelector). */
  private static void assertNodes(Simulation sim) {
    Set<String> nodes = new HashSet<>();
    for (Pod p : sim.store().list(Pod.class, NS).items()) {
      nodes.add(p.spec().nodeName());
    }
    assertThat(nodes).isNotEmpty().isSubsetOf("node-1", "node-2");
  }
}
