package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.ConcurrencyPolicy;
import io.fleetkit.api.batch.CronJob;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.resource.ResourceList;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A scenario with a CronJob: the simulator runs the CronJob controller on its clock, and the Jobs run to the end. */
final class SimulationCronJobTest {

  private static CronJob cron(String schedule, int keep) {
    PodSpec pod = PodSpec.builder().container("work", "busybox:1", ResourceList.ofCpuMemory(100, 0))
        .restartPolicy(RestartPolicy.Never).build();
    return CronJob.builder().namespace("default").name("tick").schedule(schedule)
        .concurrencyPolicy(ConcurrencyPolicy.Forbid).successfulJobsHistoryLimit(keep)
        .jobTemplateLabels(Map.of("app", "tick"))
        .jobSpec(Job.builder().name("x").templateLabels(Map.of("app", "tick")).podSpec(pod).build().spec())
        .build();
  }

  private static List<Job> jobs(Simulation sim) {
    return sim.store().list(Job.class, "default").items();
  }

  @Test
  void cronJob_every5Minutes_jobsCreatedOnTheSimulatedClock_completeAndAreTrimmed() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2)).object(cron("*/5 * * * *", 2))
        .seed(3).build()) {
      sim.runFor(Duration.ofMinutes(4));
      assertThat(jobs(sim)).as("the first run is at 00:05").isEmpty();
      sim.runFor(Duration.ofMinutes(1).plusSeconds(30));
      assertThat(jobs(sim)).singleElement().satisfies(j -> assertThat(j.status().isFinished()).isTrue());
      sim.runFor(Duration.ofMinutes(30));
      CronJob cj = sim.store().require(CronJob.class, "default", "tick");
      assertThat(cj.status().lastScheduleTime()).isEqualTo(sim.clock().now().minusSeconds(sim.clock().now()
          .getEpochSecond() % 300));
      assertThat(cj.status().active()).isEmpty();
      assertThat(cj.status().lastSuccessfulTime()).isNotNull();
      assertThat(jobs(sim)).as("successfulJobsHistoryLimit 2").hasSize(2)
          .allSatisfy(j -> assertThat(j.status().isFinished()).isTrue());
      assertThat(sim.store().list(io.fleetkit.api.core.Pod.class, "default").items())
          .as("the deleted Jobs' pods are collected").hasSize(2);
    }
  }
}
