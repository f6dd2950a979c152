package io.fleetkit.queueing.controller;

import static io.fleetkit.queueing.controller.QueueFixtures.NS;
import static io.fleetkit.queueing.controller.QueueFixtures.job;
import static io.fleetkit.queueing.controller.QueueFixtures.running;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.queueing.AdmissionEngine;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A running Job's finished pods give back their quota (Kueue's job reconciler keeps the workload's {@code
 * status.reclaimablePods} those of {@code ReclaimablePods}): once fewer pods remain to run than the Job's parallelism,
 * the pods it no longer needs are reclaimable and a waiting Job may take their quota.
 */
final class QueueReclaimablePodsControllerTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private AdmissionEngine engine;
  private QueueAdmissionController ctl;

  @BeforeEach
  void start() {
    engine = QueueFixtures.engine(clock.asClock(), "4");
    ctl = QueueAdmissionController.builder(store, engine).clock(clock).stepping().build();
    ctl.start().join();
  }

  @AfterEach
  void close() {
    ctl.close();
    store.close();
  }

  private Job get(String name) {
    return store.require(Job.class, NS, name);
  }

  private void succeeded(String name, int succeeded, int active) {
    Job j = get(name);
    JobStatus s = j.status();
    store.updateStatus(j.withStatus(new JobStatus(active, succeeded, s.failed(), s.ready(), s.conditions(),
        s.startTime(), s.completionTime(), s.completedIndexes())));
    ctl.runUntilIdle();
  }

  @Test
  void finishedPodsOfARunningJobAdmitAWaitingOne() {
    store.create(job("a", "lq", 4, "1", 0, true, 1000));
    ctl.runUntilIdle();
    clock.advance(Duration.ofSeconds(1));
    store.create(job("b", "lq", 2, "1", 0, true, 1000));
    ctl.runUntilIdle();
    assertThat(running(get("a"))).isTrue();
    assertThat(get("b").spec().suspend()).isTrue();

    // one of a's 4 pods done: 3 remain for 4 slots, 1 reclaimable; b needs 2
    succeeded("a", 1, 3);
    assertThat(engine.reclaimablePods("default/a")).isEqualTo(Map.of("main", 1));
    assertThat(engine.usage("cq", "batch", "cpu")).isEqualTo(Quantity.parse("3"));
    assertThat(get("b").spec().suspend()).isTrue();

    // two done: 2 reclaimable, b is admitted into them
    succeeded("a", 2, 2);
    assertThat(engine.reclaimablePods("default/a")).isEqualTo(Map.of("main", 2));
    assertThat(running(get("b"))).isTrue();
    assertThat(engine.usage("cq", "batch", "cpu")).isEqualTo(Quantity.parse("4"));
  }
}
