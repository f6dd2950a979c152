package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.CronJob;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.node.HealthSource;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * A scenario with a Job that has {@code ttlSecondsAfterFinished} runs the TTL-after-finished controller on the
 * simulated clock: the finished Job is deleted when its TTL has passed, and the garbage collector deletes its pods.
 */
final class SimulationTtlAfterFinishedTest {

  /** A Job of two pods that each run 20 s and succeed. */
  private static Job job(String name, @Nullable Integer ttl) {
    PodSpec pod = PodSpec.builder().container("work", "busybox:1", ResourceList.ofCpuMemory(100, 0))
        .restartPolicy(RestartPolicy.Never).build();
    PodTemplateSpec template = new PodTemplateSpec(ObjectMeta.builder().label("app", name)
        .annotation(HealthSource.EXIT_AFTER, "20").build(), pod);
    return Job.builder().namespace("default").name(name).parallelism(2).completions(2).template(template)
        .ttlSecondsAfterFinished(ttl).build();
  }

  private static @Nullable Job stored(Simulation sim, String name) {
    return sim.store().get(Job.class, "default", name).orElse(null);
  }

  private static List<Pod> pods(Simulation sim, String app) {
    return sim.store().list(Pod.class, "default", (Pod p) -> app.equals(p.metadata().labels().get("app")))
        .items();
  }

  @Test
  void jobWithTtl60_finishes_thenDeletedWithItsPodsAbout60sLater() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(1)).object(job("pi", 60))
        .object(job("keep", null)).seed(2).build()) {
      assertThat(sim.runUntil(s -> {
        Job j = stored(s, "pi");
        return j != null && j.status().isFinished();
      }, Duration.ofMinutes(5))).as("the Job finishes").isTrue();
      Job finished = stored(sim, "pi");
      JobCondition complete = finished.status().condition(JobCondition.COMPLETE);
      assertThat(complete).isNotNull();
      Instant finishedAt = complete.lastTransitionTime();
      assertThat(finishedAt).isNotNull();
      assertThat(pods(sim, "pi")).hasSize(2);

      sim.runFor(Duration.between(sim.clock().now(), finishedAt.plusSeconds(59)));
      assertThat(stored(sim, "pi")).as("59 s after finishing").isNotNull();
      assertThat(pods(sim, "pi")).hasSize(2);

      sim.runFor(Duration.ofSeconds(2));
      assertThat(stored(sim, "pi")).as("61 s after finishing").isNull();
      assertThat(pods(sim, "pi")).as("the garbage collector deleted the Job's pods").isEmpty();

      sim.runFor(Duration.ofMinutes(10));
      Job keep = stored(sim, "keep");
      assertThat(keep).as("a finished Job without TTL stays").isNotNull();
      assertThat(keep.status().isFinished()).isTrue();
      assertThat(pods(sim, "keep")).hasSize(2);
    }
  }

  /** A CronJob whose job template carries the TTL: its Jobs go TTL seconds after they finish, not by history limit. */
  @Test
  void cronJobTemplateWithTtl_itsFinishedJobsDeleted() {
    Job template = job("x", 30);
    CronJob cron = CronJob.builder().namespace("default").name("tick").schedule("*/5 * * * *")
        .successfulJobsHistoryLimit(10).jobTemplateLabels(Map.of("app", "tick")).jobSpec(template.spec()).build();
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(1)).object(cron).seed(2).build()) {
      sim.runFor(Duration.ofMinutes(5).plusSeconds(10));
      assertThat(sim.store().list(Job.class, "default").items()).as("the 00:05 run").hasSize(1);
      sim.runFor(Duration.ofMinutes(9));
      assertThat(sim.store().list(Job.class, "default").items())
          .as("the 00:05 and 00:10 runs finished more than 30 s ago").isEmpty();
      assertThat(sim.store().require(CronJob.class, "default", "tick").status().lastSuccessfulTime()).isNotNull();
    }
  }

  @Test
  void withoutTtlAfterFinished_finishedJobStays() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(1)).object(job("pi", 0))
        .withoutTtlAfterFinished().seed(2).build()) {
      sim.runFor(Duration.ofMinutes(5));
      Job j = stored(sim, "pi");
      assertThat(j).isNotNull();
      assertThat(j.status().isFinished()).isTrue();
    }
  }

  @Test
  void jobWithTtlAppliedLater_controllerRuns_zeroTtlDeletesAtOnce() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(1))
        .apply(Duration.ofSeconds(10), List.of(job("late", 0)), "late.yaml").seed(2).build()) {
      assertThat(sim.runUntil(s -> stored(s, "late") != null, Duration.ofMinutes(1))).isTrue();
      assertThat(sim.runUntil(s -> stored(s, "late") == null, Duration.ofMinutes(5)))
          .as("deleted once finished").isTrue();
      assertThat(pods(sim, "late")).isEmpty();
    }
  }
}
