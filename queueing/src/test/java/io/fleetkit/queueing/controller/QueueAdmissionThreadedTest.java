package io.fleetkit.queueing.controller;

import static io.fleetkit.queueing.controller.QueueFixtures.NS;
import static io.fleetkit.queueing.controller.QueueFixtures.running;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.queueing.AdmissionEngine;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Three workers on an asynchronously delivering store (caches behind the store, write conflicts): Jobs of mixed
 * priorities through 4 CPUs of quota, finished one at a time by the test, never run beyond the quota and all finish.
 */
final class QueueAdmissionThreadedTest {

  private static long runningMilliCpu(ObjectStore store) {
    long milli = 0;
    for (Job j : store.list(Job.class, NS).items()) {
      if (running(j) && !j.status().isFinished()) {
        milli += j.spec().parallelism() * j.spec().template().spec().effectiveRequests().milliCpu();
      }
    }
    return milli;
  }

  @Test
  void threaded_mixedPriorities_neverBeyondQuota_allFinish() throws Exception {
    AdmissionEngine engine = QueueFixtures.engine(Clock.systemUTC(), "4");
    try (ObjectStore store = ObjectStore.inMemory();
        QueueAdmissionController c = QueueAdmissionController.builder(store, engine).workers(3).build()) {
      c.start().get(10, TimeUnit.SECONDS);
      int n = 16;
      for (int i = 0; i < n; i++) {
        store.create(QueueFixtures.job("j" + i, "lq", 1 + i % 2, "1", i % 3, i % 4 != 0, 10));
      }
      long peak = 0;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      int finished = 0;
      while (finished < n && System.nanoTime() < deadline) {
        peak = Math.max(peak, runningMilliCpu(store));
        finished = 0;
        for (Job j : store.list(Job.class, NS).items()) {
          if (j.status().isFinished()) {
            finished++;
          }
        }
        Thread.sleep(2);
        List<Job> runningJobs = store.list(Job.class, NS, (Job j) -> running(j) && !j.status().isFinished())
            .items();
        if (!runningJobs.isEmpty()) {
          Job j = runningJobs.get(0);
          try {
            store.updateStatus(j.withStatus(new JobStatus(0, j.spec().parallelism(), 0, null, List.of(
                new JobCondition(JobCondition.COMPLETE, ConditionStatus.True, "", "", Instant.now(), Instant.now())),
                null, Instant.now(), "")));
          } catch (ConflictException e) {
            // the controller wrote it meanwhile; try again in the next round
          }
        }
      }
      assertThat(finished).isEqualTo(n);
      assertThat(peak).isBetween(1L, 4_000L);
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (engine.admittedCount() + engine.pendingCount() > 0 && System.nanoTime() < until) {
        Thread.sleep(5);
      }
      assertThat(engine.admittedCount()).isZero();
      assertThat(engine.pendingCount()).isZero();
    }
  }
}
