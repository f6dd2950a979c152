package io.fleetkit.queueing.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

final class BatchSimulatorTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final List<Partition> PARTITIONS =
      List.of(Partition.of("batch", Duration.ofMinutes(30), Duration.ofHours(4)));

  private static BatchSimulator simulator(Duration overTimeLimit) {
    MultifactorPriority priority = new MultifactorPriority(PriorityWeights.of(1000, 0, 1000, 0, 0), 4, 4,
        PARTITIONS, List.of(), null);
    return new BatchSimulator(4, PARTITIONS, priority,
        new BackfillScheduler(BackfillConfig.DEFAULT, PARTITIONS), overTimeLimit);
  }

  private static BatchJob job(String id, int nodes, int limitMinutes, int eligibleMinute) {
    return BatchJob.of(id, nodes, Duration.ofMinutes(limitMinutes), T0.plus(Duration.ofMinutes(eligibleMinute)));
  }

  private static Map<String, JobRecord> byId(List<JobRecord> records) {
    return records.stream().collect(Collectors.toMap(JobRecord::id, Function.identity()));
  }

  @Test
  void run_jobOverItsTimeLimit_isKilledAtTheLimitPlusOverTimeLimit() {
    BatchSimulator sim = simulator(Duration.ofMinutes(1));
    sim.submit(job("overrun", 1, 10, 0), Duration.ofMinutes(25));
    sim.submit(job("ok", 1, 10, 0), Duration.ofMinutes(5));
    Map<String, JobRecord> r = byId(sim.run(T0));
    assertThat(r.get("overrun").state()).isEqualTo(JobRecord.State.TIMEOUT);
    assertThat(r.get("overrun").end()).isEqualTo(T0.plus(Duration.ofMinutes(11)));
    assertThat(r.get("ok").state()).isEqualTo(JobRecord.State.COMPLETED);
    assertThat(r.get("ok").end()).isEqualTo(T0.plus(Duration.ofMinutes(5)));
  }

  @Test
  void run_wideJobWaits_smallJobsBackfillAroundItsReservation() {
    BatchSimulator sim = simulator(Duration.ZERO);
    // Job size weight 1000: the 4-node job has the highest priority once it is eligible at minute 1.
    sim.submit(job("busy", 3, 60, 0), Duration.ofMinutes(60));
    sim.submit(job("wide", 4, 30, 1), Duration.ofMinutes(30));
    sim.submit(job("fits-hole", 1, 50, 1), Duration.ofMinutes(50));
    sim.submit(job("too-long", 1, 120, 1), Duration.ofMinutes(120));
    Map<String, JobRecord> r = byId(sim.run(T0));
    assertThat(r.get("busy").start()).isEqualTo(T0);
    // At minute 1 wide reserves [60, 90); fits-hole ends at 51 and starts now; too-long must wait for wide.
    assertThat(r.get("fits-hole").start()).isEqualTo(T0.plus(Duration.ofMinutes(1)));
    assertThat(r.get("wide").start()).isEqualTo(T0.plus(Duration.ofMinutes(60)));
    assertThat(r.get("too-long").start()).isEqualTo(T0.plus(Duration.ofMinutes(90)));
  }

  @Test
  void run_jobsEndingEarly_letTheReservedJobStartEarly() {
    BatchSimulator sim = simulator(Duration.ZERO);
    sim.submit(job("busy", 3, 60, 0), Duration.ofMinutes(20));
    sim.submit(job("wide", 4, 30, 1), Duration.ofMinutes(30));
    Map<String, JobRecord> r = byId(sim.run(T0));
    assertThat(r.get("wide").start()).isEqualTo(T0.plus(Duration.ofMinutes(20)));
  }
}
