package io.fleetkit.adapter.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.fail;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.api.scheduling.PodGroup;
import io.fleetkit.api.scheduling.PodGroupPhase;
import io.fleetkit.api.store.ObjectStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Against a real Slurm 22.05 (scripts/slurm-local.sh: 4 fake nodes n1..n4 with 2 CPUs, 2000 MB and 2 fake GPUs each,
 * partition "debug", slurmrestd with JWT). Runs when {@code fleetkit.slurm.url} (or {@code FLEETKIT_SLURM_URL}) is
 * set, with the token file in {@code fleetkit.slurm.tokenFile} ({@code FLEETKIT_SLURM_TOKEN_FILE}); .ci/run always
 * sets both. When they are set but Slurm cannot be reached, the tests FAIL rather than skip. Without them the class is
 * skipped, so a build without Slurm still passes.
 */
@ExtendWith(LiveSlurmCondition.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
final class SlurmLiveTest {
  private static final Duration WAIT = Duration.ofSeconds(90);
  private static SlurmClient client;
  private static Path tokenFile;
  private static String url;
  private static Path outDir;

  private static String setting(String property, String env) {
    String v = System.getProperty(property);
    return v == null || v.isBlank() ? System.getenv(env) : v;
  }

  @BeforeAll
  static void connect() throws IOException {
    url = LiveSlurmCondition.url();
    String tf = setting("fleetkit.slurm.tokenFile", "FLEETKIT_SLURM_TOKEN_FILE");
    if (tf == null || tf.isBlank()) {
      fail("fleetkit.slurm.url is set to " + url + " but fleetkit.slurm.tokenFile is not");
    }
    tokenFile = Path.of(tf);
    client = SlurmClient.builder().baseUri(url).token(SlurmToken.fromFile("root", tokenFile))
        .retry(new SlurmRetry(3, Duration.ofMillis(200), Duration.ofSeconds(1))).build();
    try {
      List<SlurmPing> pings = client.ping();
      assertThat(pings).as("pings from " + url).isNotEmpty().allMatch(SlurmPing::isUp);
    } catch (SlurmException e) {
      fail("fleetkit.slurm.url is set but Slurm at " + url + " is not usable: " + e.getMessage(), e);
    }
    outDir = Files.createTempDirectory("fleetkit-slurm-it");
    outDir.toFile().setWritable(true, false);
  }

  @AfterAll
  static void cancelLeftovers() {
    if (client != null) {
      for (SlurmJob j : client.jobs()) {
        if (!j.isFinished() && j.name().startsWith("it-")) {
          client.cancel(j.jobId());
        }
      }
    }
  }

  private static SlurmJobSpec.Builder spec(String name, String body) {
    return SlurmJobSpec.builder().name("it-" + name).partition("debug").timeLimit(Duration.ofMinutes(2))
        .workingDirectory(outDir.toString()).standardOutput(outDir + "/" + name + "-%j.out")
        .script("#!/bin/bash\n" + body + "\n");
  }

  private static SlurmJob await(long id, Predicate<SlurmJob> done) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    SlurmJob j = client.job(id);
    while (!done.test(j)) {
      if (System.nanoTime() > deadline) {
        fail("Slurm job " + id + " did not get there within " + WAIT + ": " + j.summary());
      }
      Thread.sleep(200);
      j = client.job(id);
    }
    return j;
  }

  private static String output(String name, long id) throws IOException {
    return Files.readString(outDir.resolve(name + "-" + id + ".out"), StandardCharsets.UTF_8);
  }

  @Test
  void nodes_fourFakeGpuNodes_readyWithCapacity() {
    List<Node> nodes = client.nodes();
    assertThat(nodes).extracting(Node::name).containsExactlyInAnyOrder("n1", "n2", "n3", "n4");
    for (Node n : nodes) {
      assertThat(n.isReady()).as(n.name()).isTrue();
      assertThat(n.status().capacity().value(ResourceNames.CPU)).isEqualTo(2);
      assertThat(n.status().capacity().value(ResourceNames.NVIDIA_GPU)).isEqualTo(2);
      assertThat(n.status().gpus()).hasSize(2);
    }
    assertThat(client.partitions()).anyMatch(p -> p.name().equals("debug") && p.isDefault() && p.totalNodes() == 4);
  }

  @Test
  void submit_watchToCompletion_completedWithOutputAndEnvironment() throws Exception {
    long id = client.submit(spec("hello", "echo \"$GREETING from $SLURM_JOB_ID\"").env("GREETING", "hi").build())
        .jobId();
    SlurmJob j = await(id, SlurmJob::isFinished);
    assertThat(j.state()).isEqualTo(SlurmJobState.COMPLETED);
    assertThat(j.exitStatus()).isEqualTo(WaitStatus.SUCCESS);
    assertThat(j.name()).isEqualTo("it-hello");
    assertThat(output("hello", id)).isEqualTo("hi from " + id + "\n");
    assertThat(client.jobs()).anyMatch(x -> x.jobId() == id);
  }

  @Test
  void submit_exit3_failedWithDecodedExitCode() throws Exception {
    long id = client.submit(spec("exit3", "exit 3").build()).jobId();
    SlurmJob j = await(id, SlurmJob::isFinished);
    assertThat(j.state()).isEqualTo(SlurmJobState.FAILED);
    assertThat(j.exitStatus().exitCode()).isEqualTo(3);
    assertThat(j.exitStatus().signaled()).isFalse();
    assertThat(j.stateReason()).isEqualTo("NonZeroExitCode");
  }

  @Test
  void cancel_runningJob_cancelled() throws Exception {
    // exec: with proctrack/linuxproc a child of the killed batch shell would outlive the cancel
    long id = client.submit(spec("sleeper", "exec sleep 300").build()).jobId();
    await(id, j -> j.state() == SlurmJobState.RUNNING);
    client.cancel(id);
    SlurmJob j = await(id, SlurmJob::isFinished);
    assertThat(j.state()).isEqualTo(SlurmJobState.CANCELLED);
    assertThat(j.phase()).isEqualTo(io.fleetkit.api.core.PodPhase.Failed);
    client.cancel(id); // cancelling again is fine
  }

  @Test
  void submit_twoGpus_gresAllocatedAndVisible() throws Exception {
    long id = client.submit(spec("gpu", "echo CUDA=$CUDA_VISIBLE_DEVICES; sleep 2").gpusPerNode(2).build()).jobId();
    SlurmJob running = await(id, j -> j.state() == SlurmJobState.RUNNING || j.isFinished());
    assertThat(running.tresPerNode()).isEqualTo("gres:gpu:2");
    SlurmJob done = await(id, SlurmJob::isFinished);
    assertThat(done.state()).isEqualTo(SlurmJobState.COMPLETED);
    assertThat(output("gpu", id)).isEqualTo("CUDA=0,1\n");
  }

  @Test
  void submit_threeGpusPerNode_rejectedNodeConfiguration() {
    SlurmRejectedException e = catchThrowableOfType(SlurmRejectedException.class,
        () -> client.submit(spec("gpu3", "true").gpusPerNode(3).build()));
    assertThat(e.getMessage()).contains("Requested node configuration is not available");
  }

  @Test
  void submit_twoNodes_oneTaskOnEach() throws Exception {
    long id = client.submit(spec("two", "srun printenv SLURMD_NODENAME").nodes(2).tasksPerNode(1).gpusPerNode(1)
        .build()).jobId();
    SlurmJob j = await(id, SlurmJob::isFinished);
    assertThat(j.state()).isEqualTo(SlurmJobState.COMPLETED);
    assertThat(j.nodeCount()).isEqualTo(2);
    Set<String> nodes = new HashSet<>(output("two", id).lines().toList());
    assertThat(nodes).hasSize(2).allMatch(n -> n.matches("n[1-4]"));
  }

  @Test
  void submit_array_threeTasksAllCompleted() throws Exception {
    long master = client.submit(spec("array", "echo task $SLURM_ARRAY_TASK_ID").array("1-3")
        .standardOutput(outDir + "/array-%A_%a.out").build()).jobId();
    long deadline = System.nanoTime() + WAIT.toNanos();
    List<SlurmJob> tasks;
    while (true) {
      tasks = client.jobs().stream().filter(j -> j.arrayJobId() == master).toList();
      if (tasks.size() == 3 && tasks.stream().allMatch(SlurmJob::isFinished)) {
        break;
      }
      if (System.nanoTime() > deadline) {
        fail("array " + master + " not finished: " + tasks.stream().map(SlurmJob::summary).toList());
      }
      Thread.sleep(200);
    }
    assertThat(tasks).extracting(SlurmJob::arrayTaskId).containsExactlyInAnyOrder(1, 2, 3);
    assertThat(tasks).allMatch(t -> t.state() == SlurmJobState.COMPLETED);
    assertThat(Files.readString(outDir.resolve("array-" + master + "_2.out"))).isEqualTo("task 2\n");
    assertThat(client.jobEntries(master)).isNotEmpty().allMatch(t -> t.arrayJobId() == master);
  }

  @Test
  void submit_badPartition_typedRejectionWithSlurmText() {
    SlurmRejectedException e = catchThrowableOfType(SlurmRejectedException.class,
        () -> client.submit(spec("badpart", "true").partition("nosuchpartition").build()));
    assertThat(e).isNotInstanceOf(SlurmAuthException.class);
    assertThat(e.hasCode(SlurmError.INVALID_PARTITION_NAME)).isTrue();
    assertThat(e.getMessage()).contains("Invalid partition name specified");
  }

  @Test
  void job_unknownId_notFound() {
    assertThatThrownBy(() -> client.job(987654)).isInstanceOf(SlurmJobNotFoundException.class)
        .hasMessageContaining("Invalid job id specified");
  }

  @Test
  void badToken_everyCall_typedAuthErrorWithoutToken() {
    String forged = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJleHAiOjQxMDI0NDQ4MDAsInN1biI6InJvb3QifQ.Zm9yZ2Vk";
    SlurmClient bad = SlurmClient.builder().baseUri(url).token(SlurmToken.of("root", forged)).retry(SlurmRetry.NONE)
        .build();
    SlurmAuthException ping = catchThrowableOfType(SlurmAuthException.class, bad::ping);
    assertThat(ping.getMessage()).doesNotContain(forged);
    assertThatThrownBy(bad::jobs).isInstanceOf(SlurmAuthException.class);
    assertThatThrownBy(bad::nodes).isInstanceOf(SlurmAuthException.class);
    assertThatThrownBy(() -> bad.submit(spec("forged", "true").build())).isInstanceOf(SlurmAuthException.class)
        .hasMessageNotContaining(forged);
    SlurmClient noUser = SlurmClient.builder().baseUri(url).token(SlurmToken.of("nosuchuser", "x")).build();
    assertThatThrownBy(noUser::ping).isInstanceOf(SlurmAuthException.class);
  }

  @Test
  void backend_podGroupGang_runsToFinishedInStore() throws Exception {
    try (ObjectStore store = ObjectStore.inMemory();
        SlurmBackend backend = SlurmBackend.builder().client(client).store(store).clock(Clock.systemUTC())
            .pollInterval(Duration.ofMillis(200)).build()) {
      PodGroup g = backend.run(Workloads.group("gang", 2, Map.of(SlurmWorkloads.SCRIPT,
          "#!/bin/bash\nsrun printenv CUDA_VISIBLE_DEVICES\n", SlurmWorkloads.WORKDIR, outDir.toString())),
          Workloads.pod("1", "100Mi", 1, Map.of()));
      assertThat(g.metadata().annotations()).containsKey(SlurmBackend.JOB_ID);
      long deadline = System.nanoTime() + WAIT.toNanos();
      PodGroup now = g;
      while (now.status().phase() != PodGroupPhase.Finished && now.status().phase() != PodGroupPhase.Failed) {
        if (System.nanoTime() > deadline) {
          fail("podgroup not finished: " + now.status());
        }
        Thread.sleep(200);
        backend.pollOnce();
        now = store.require(PodGroup.class, "team", "gang");
      }
      assertThat(now.status().phase()).isEqualTo(PodGroupPhase.Finished);
      assertThat(now.status().succeeded()).isEqualTo(2);
      assertThat(now.metadata().annotations()).containsEntry(SlurmBackend.STATE, "COMPLETED")
          .containsEntry(SlurmBackend.EXIT_STATUS, "0:0");
      String nodes = now.metadata().annotations().get(SlurmBackend.NODES);
      assertThat(nodes).matches("n\\[\\d[-,]\\d\\]");
    }
  }

  @Test
  void backend_jobWithMoreCompletionsThanParallelism_arrayRunsToComplete() throws Exception {
    try (ObjectStore store = ObjectStore.inMemory();
        SlurmBackend backend = SlurmBackend.builder().client(client).store(store).build()) {
      io.fleetkit.api.batch.Job job = backend.run(Workloads.job("sweep", 2, 3, Workloads.pod("1", "100Mi", 0,
          Map.of("STEP", "x")), Map.of(SlurmWorkloads.SCRIPT, "#!/bin/bash\necho $STEP $SLURM_ARRAY_TASK_ID\n",
          SlurmWorkloads.WORKDIR, outDir.toString())));
      assertThat(job.metadata().annotations()).containsEntry(SlurmBackend.TASKS, "3");
      assertThat(job.status().active()).isEqualTo(3);
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (!store.require(io.fleetkit.api.batch.Job.class, "team", "sweep").status().isFinished()) {
        if (System.nanoTime() > deadline) {
          fail("job not finished: " + store.require(io.fleetkit.api.batch.Job.class, "team", "sweep").status());
        }
        Thread.sleep(200);
        backend.pollOnce();
      }
      io.fleetkit.api.batch.Job done = store.require(io.fleetkit.api.batch.Job.class, "team", "sweep");
      assertThat(done.status().succeeded()).isEqualTo(3);
      assertThat(done.status().failed()).isZero();
      assertThat(done.status().active()).isZero();
      assertThat(done.status().condition(io.fleetkit.api.batch.JobCondition.COMPLETE)).isNotNull();
      assertThat(done.status().completionTime()).isNotNull();
    }
  }

  @Test
  void sbatchScript_submittedWithSbatch_sameJobAsRestSubmission() throws Exception {
    Path conf = tokenFile.getParent().resolve("slurm.conf");
    Path sbatch = Path.of("/usr/bin/sbatch");
    Assumptions.assumeTrue(Files.isExecutable(sbatch) && Files.isReadable(conf),
        "sbatch or " + conf + " not available on this machine");
    SlurmJobSpec s = spec("twin", "srun true").nodes(2).tasksPerNode(1).gpusPerNode(1).cpusPerTask(1)
        .memoryPerNodeMiB(300L).timeLimit(Duration.ofMinutes(7)).build();
    long viaRest = client.submit(s).jobId();
    Path script = outDir.resolve("twin.sbatch");
    Files.writeString(script, SbatchScript.render(s));
    ProcessBuilder pb = new ProcessBuilder(sbatch.toString(), "--parsable", script.toString())
        .redirectErrorStream(true);
    pb.environment().put("SLURM_CONF", conf.toString());
    Process p = pb.start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("sbatch said: " + out).isZero();
    long viaSbatch = Long.parseLong(out.split(";")[0]);
    SlurmJob a = await(viaRest, SlurmJob::isFinished);
    SlurmJob b = await(viaSbatch, SlurmJob::isFinished);
    assertThat(b.name()).isEqualTo(a.name());
    assertThat(b.partition()).isEqualTo(a.partition());
    assertThat(b.nodeCount()).isEqualTo(a.nodeCount()).isEqualTo(2);
    assertThat(b.tasks()).isEqualTo(a.tasks()).isEqualTo(2);
    assertThat(b.tresPerNode()).isEqualTo(a.tresPerNode()).isEqualTo("gres:gpu:1");
    assertThat(b.timeLimitMinutes()).isEqualTo(a.timeLimitMinutes()).isEqualTo(7);
    assertThat(b.state()).isEqualTo(a.state()).isEqualTo(SlurmJobState.COMPLETED);
  }
}
