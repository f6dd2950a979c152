package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeSpec;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.reconcile.controllers.ActivePods;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A Job's pods, which carry the {@value Job#TRACKING_FINALIZER} finalizer, deleted by others in a running simulation
 * (a user; the taint-eviction controller): the Job controller counts each as failed and lets it go, its kubelet ends
 * it, and by the end no pod is left Terminating and none holds the finalizer.
 */
final class JobTrackingInSimulationTest {

  private static Job job() {
    PodSpec spec = PodSpec.builder().container("work", "busybox:1", ResourceList.ofCpuMemory(500, 0))
        .restartPolicy(RestartPolicy.Never).build();
    return Job.builder().namespace("default").name("calc").parallelism(3).completions(3)
        .template(new PodTemplateSpec(ObjectMeta.builder().label("job", "calc")
            .annotation("simulate.fleetkit.io/exit-after-seconds", "60").build(), spec)).build();
  }

  private static boolean complete(Simulation s) {
    JobCondition c = s.store().require(Job.class, "default", "calc").status().condition(JobCondition.COMPLETE);
    return c != null;
  }

  private static void assertNothingHeld(Simulation sim) {
    List<Pod> pods = sim.store().list(Pod.class, "default").items();
    assertThat(pods).as("no pod left Terminating").allSatisfy(p ->
        assertThat(p.metadata().deletionTimestamp()).isNull());
    assertThat(pods).as("every finished pod counted and released").allSatisfy(p ->
        assertThat(p.metadata().finalizers()).doesNotContain(Job.TRACKING_FINALIZER));
    Job j = sim.store().require(Job.class, "default", "calc");
    assertThat(j.status().uncountedTerminatedPods().isEmpty()).isTrue();
  }

  @Test
  void runningPodDeletedByAUser_countedFailed_replaced_jobCompletes() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2)).object(job()).seed(3).build()) {
      sim.runFor(Duration.ofSeconds(20));
      List<Pod> running = sim.store().list(Pod.class, "default").items().stream().filter(ActivePods::isActive)
          .toList();
      assertThat(running).hasSize(3).allSatisfy(p ->
          assertThat(p.metadata().finalizers()).contains(Job.TRACKING_FINALIZER));
      sim.store().delete(Pod.class, "default", running.get(0).metadata().name());

      assertThat(sim.runUntil(JobTrackingInSimulationTest::complete, Duration.ofMinutes(10))).isTrue();
      sim.runFor(Duration.ofSeconds(5));
      Job j = sim.store().require(Job.class, "default", "calc");
      assertThat(j.status().succeeded()).isEqualTo(3);
      assertThat(j.status().failed()).as("the deleted pod").isEqualTo(1);
      assertNothingHeld(sim);
    }
  }

  @Test
  void podsEvictedByANoExecuteTaint_countedFailed_replacedElsewhere_jobCompletes() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2)).object(job()).seed(3).build()) {
      sim.runFor(Duration.ofSeconds(20));
      String node = sim.store().list(Pod.class, "default").items().get(0).spec().nodeName();
      long onNode = sim.store().list(Pod.class, "default").items().stream()
          .filter(p -> p.spec().nodeName().equals(node)).count();
      Node n = sim.store().require(Node.class, "", node);
      List<Taint> taints = new ArrayList<>(n.spec().taints());
      taints.add(Taint.of("maintenance", "now", TaintEffect.NoExecute));
      sim.store().update(n.withSpec(new NodeSpec(n.spec().unschedulable(), taints, n.spec().providerID(),
          n.spec().podCIDRs())));

      assertThat(sim.runUntil(JobTrackingInSimulationTest::complete, Duration.ofMinutes(10))).isTrue();
      sim.runFor(Duration.ofSeconds(5));
      Job j = sim.store().require(Job.class, "default", "calc");
      assertThat(j.status().succeeded()).isEqualTo(3);
      assertThat(j.status().failed()).as("the evicted pods").isEqualTo((int) onNode);
      assertNothingHeld(sim);
    }
  }
}
