package io.fleetkit.adapter.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.scheduling.PodGroup;
import io.fleetkit.api.scheduling.PodGroupPhase;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The backend against a scripted slurmrestd and an in-memory store. */
final class SlurmBackendTest {
  private static final String SCRIPT = "#!/bin/bash\nsrun hostname\n";
  private final FakeSlurmRestd slurm = new FakeSlurmRestd();
  private final ObjectStore store = ObjectStore.inMemory();
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final SlurmBackend backend = SlurmBackend.builder().store(store).clock(clock)
      .client(SlurmClient.builder().baseUri(slurm.url()).token(SlurmToken.of("root", "t.o.k"))
          .retry(new SlurmRetry(2, Duration.ZERO, Duration.ZERO)).sleeper(d -> { }).build())
      .build();

  @AfterEach
  void close() {
    backend.close();
    slurm.close();
    store.close();
  }

  private Job gangJob() {
    return Workloads.job("train", 2, 2, Workloads.pod("1", "100Mi", 1, Map.of()),
        Map.of(SlurmWorkloads.SCRIPT, SCRIPT));
  }

  private Job stored(String name) {
    return store.require(Job.class, "team", name);
  }

  @Test
  void run_job_submittedAnnotatedAndActive() {
    slurm.answer(200, Samples.read("job-submit-gres-response.json"));
    Job j = backend.run(gangJob());
    assertThat(j.metadata().annotations()).containsEntry(SlurmBackend.TASKS, "1")
        .containsEntry(SlurmBackend.PODS_PER_TASK, "2").containsKey(SlurmBackend.JOB_ID);
    assertThat(stored("train").status().active()).isEqualTo(2);
    assertThat(stored("train").status().startTime()).isEqualTo(clock.instant());
    assertThat(slurm.requests().get(0).body()).contains("\"nodes\":2").contains("\"gres\":\"gpu:1\"");
  }

  @Test
  void poll_runningThenFailedExit3_statusFollowsSlurm() {
    slurm.answer(200, Samples.read("job-submit-gres-response.json"));
    backend.run(gangJob());
    slurm.answer(200, Samples.read("job-get-running-gres-2nodes.json"));
    assertThat(backend.pollOnce()).isEqualTo(1);
    Job running = stored("train");
    assertThat(running.status().active()).isEqualTo(2);
    assertThat(running.status().ready()).isEqualTo(2);
    assertThat(running.metadata().annotations()).containsEntry(SlurmBackend.STATE, "RUNNING")
        .containsEntry(SlurmBackend.NODES, "n[1-2]");

    slurm.answer(200, Samples.read("job-get-failed-exit3.json"));
    clock.advance(Duration.ofMinutes(1));
    assertThat(backend.pollOnce()).isEqualTo(1);
    Job failed = stored("train");
    assertThat(failed.status().failed()).isEqualTo(2);
    assertThat(failed.status().active()).isZero();
    JobCondition c = failed.status().condition(JobCondition.FAILED);
    assertThat(c.reason()).isEqualTo("NonZeroExitCode");
    assertThat(c.message()).contains("FAILED").contains("exit 3:0");
    assertThat(c.lastTransitionTime()).isEqualTo(clock.instant());
    assertThat(failed.metadata().annotations()).containsEntry(SlurmBackend.EXIT_STATUS, "3:0");

    int before = slurm.requests().size();
    assertThat(backend.pollOnce()).isZero();
    assertThat(slurm.requests()).hasSize(before); // finished: not asked again
  }

  @Test
  void poll_completed_completeConditionAndCompletionTime() {
    slurm.answer(200, Samples.read("job-submit-response.json"));
    backend.run(gangJob());
    slurm.answer(200, Samples.read("job-get-completed.json"));
    backend.pollOnce();
    Job done = stored("train");
    assertThat(done.status().isFinished()).isTrue();
    assertThat(done.status().succeeded()).isEqualTo(2);
    assertThat(done.status().condition(JobCondition.COMPLETE)).isNotNull();
    assertThat(done.status().completionTime()).isNotNull();
  }

  @Test
  void poll_podGroup_pendingRunningFinished() {
    slurm.answer(200, Samples.read("job-submit-gres-response.json"));
    PodGroup g = backend.run(Workloads.group("gang", 2, Map.of(SlurmWorkloads.SCRIPT, SCRIPT)),
        Workloads.pod("1", "100Mi", 1, Map.of()));
    assertThat(g.status().phase()).isEqualTo(PodGroupPhase.Pending);
    slurm.answer(200, Samples.read("job-get-pending-gres-2nodes.json"));
    backend.pollOnce();
    assertThat(store.require(PodGroup.class, "team", "gang").status().phase()).isEqualTo(PodGroupPhase.Pending);
    slurm.answer(200, Samples.read("job-get-running-gres-2nodes.json"));
    backend.pollOnce();
    PodGroup running = store.require(PodGroup.class, "team", "gang");
    assertThat(running.status().phase()).isEqualTo(PodGroupPhase.Running);
    assertThat(running.status().running()).isEqualTo(2);
    slurm.answer(200, Samples.read("job-get-completed.json"));
    backend.pollOnce();
    PodGroup done = store.require(PodGroup.class, "team", "gang");
    assertThat(done.status().phase()).isEqualTo(PodGroupPhase.Finished);
    assertThat(done.status().succeeded()).isEqualTo(2);
  }

  private static String jobs(String... entries) {
    return "{\"errors\":[],\"jobs\":[" + String.join(",", entries) + "]}";
  }

  private static String entry(long id, long master, Integer task, String state, int exit) {
    return "{\"job_id\":" + id + ",\"array_job_id\":" + master + ",\"array_task_id\":" + task
        + ",\"job_state\":\"" + state + "\",\"state_reason\":\"None\",\"exit_code\":" + exit
        + ",\"name\":\"team.sweep\",\"nodes\":\"n1\",\"node_count\":1,\"start_time\":1795964387}";
  }

  @Test
  void poll_array_countsTasksIncludingUnsplitPendingMaster() {
    slurm.answer(200, Samples.read("job-submit-array-response.json")); // master id 4
    Job j = backend.run(Workloads.job("sweep", 2, 3, Workloads.pod("1", "100Mi", 0, Map.of()),
        Map.of(SlurmWorkloads.SCRIPT, SCRIPT)));
    assertThat(j.metadata().annotations()).containsEntry(SlurmBackend.TASKS, "3")
        .containsEntry(SlurmBackend.PODS_PER_TASK, "1");
    assertThat(slurm.requests().get(0).body()).contains("\"array\":\"0-2%2\"");
    // task 0 done, task 1 running, task 2 still inside the pending master record; an unrelated job is ignored
    slurm.answer(200, jobs(entry(5, 4, 0, "COMPLETED", 0), entry(6, 4, 1, "RUNNING", 0),
        entry(4, 4, null, "PENDING", 0), entry(9, 0, null, "RUNNING", 0)));
    backend.pollOnce();
    Job mid = stored("sweep");
    assertThat(mid.status().succeeded()).isEqualTo(1);
    assertThat(mid.status().active()).isEqualTo(2);
    assertThat(mid.status().ready()).isEqualTo(1);
    assertThat(mid.status().isFinished()).isFalse();
    slurm.answer(200, jobs(entry(5, 4, 0, "COMPLETED", 0), entry(6, 4, 1, "FAILED", 256),
        entry(4, 4, 2, "COMPLETED", 0)));
    backend.pollOnce();
    Job done = stored("sweep");
    assertThat(done.status().succeeded()).isEqualTo(2);
    assertThat(done.status().failed()).isEqualTo(1);
    assertThat(done.status().active()).isZero();
    assertThat(done.status().condition(JobCondition.FAILED).message()).contains("job 6 FAILED").contains("1:0");
  }

  @Test
  void poll_jobForgottenBySlurm_failedAsLost() {
    slurm.answer(200, Samples.read("job-submit-response.json"));
    backend.run(gangJob());
    slurm.answer(500, Samples.read("error-job-not-found.json"));
    backend.pollOnce();
    assertThat(stored("train").status().condition(JobCondition.FAILED).reason()).isEqualTo(SlurmBackend.REASON_LOST);
  }

  @Test
  void poll_slurmUnreachable_noChangeAndRetriedNextTime() {
    slurm.answer(200, Samples.read("job-submit-response.json"));
    backend.run(gangJob());
    slurm.answer(503, "").answer(503, "");
    assertThat(backend.pollOnce()).isZero();
    assertThat(stored("train").status().isFinished()).isFalse();
    slurm.answer(200, Samples.read("job-get-completed.json"));
    assertThat(backend.pollOnce()).isEqualTo(1);
  }

  @Test
  void poll_objectDeleted_slurmJobCancelled() {
    slurm.answer(200, Samples.read("job-submit-response.json"));
    backend.run(gangJob());
    store.delete(Job.class, "team", "train", DeleteOptions.background()); // as kubectl delete
    slurm.answer(200, Samples.read("job-delete-response.json"));
    backend.pollOnce();
    FakeSlurmRestd.Request last = slurm.requests().get(slurm.requests().size() - 1);
    assertThat(last.method()).isEqualTo("DELETE");
    assertThat(last.path()).isEqualTo("/slurm/v0.0.38/job/2");
  }
}
