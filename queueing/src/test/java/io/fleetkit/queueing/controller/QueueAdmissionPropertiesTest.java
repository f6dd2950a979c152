package io.fleetkit.queueing.controller;

import static io.fleetkit.queueing.controller.QueueFixtures.NS;
import static io.fleetkit.queueing.controller.QueueFixtures.running;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.queueing.AdmissionEngine;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.ClusterQueuePreemption;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.FlavorResourceQuota;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Invariants of the controller under random Job arrivals (two ClusterQueues of one cohort, an unknown queue, random
 * priorities), completions, deletions, users resuming pending Jobs, and controller restarts with a fresh engine:
 * after every single reconcile the running Jobs of each ClusterQueue stay within its nominal quota plus what it may
 * borrow (a Job's finished pods are reclaimable: it needs only the pods left, Kueue's {@code ReclaimablePods}), and once idle every managed Job is finished, running with an admission in the engine, or suspended and
 * pending in the engine (or, with an unknown queue, suspended as inadmissible).
 */
final class QueueAdmissionPropertiesTest {
  /** Most CPUs each ClusterQueue may use: cq-a 4 nominal + 2 borrowing limit; cq-b 4 + all 4 of cq-a's. */
  private static final Map<String, Long> LIMIT = Map.of("cq-a", 6_000L, "cq-b", 8_000L);
  private static final long COHORT = 8_000;
  private static final List<String> QUEUES = List.of("lq-a", "lq-b", "lq-missing");

  sealed interface Op permits Create, Finish, Succeed, Delete, Resume, Restart {}

  record Create(int cpu, int parallelism, int priority, int queue, boolean suspend) implements Op {}

  record Finish(int index, boolean failed) implements Op {}

  /** One pod of a running 2-pod Job succeeded: 1 of its 2 pods is reclaimable from then on. */
  record Succeed(int index) implements Op {}

  record Delete(int index) implements Op {}

  record Resume(int index) implements Op {}

  record Restart() implements Op {}

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<Op> create = Combinators.combine(Arbitraries.integers().between(1, 3),
        Arbitraries.integers().between(1, 2), Arbitraries.integers().between(0, 2),
        Arbitraries.integers().between(0, QUEUES.size() - 1).edgeCases(c -> c.includeOnly(0)),
        Arbitraries.of(true, false)).as(Create::new);
    Arbitrary<Integer> index = Arbitraries.integers().between(0, 40);
    Arbitrary<Op> op = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, create),
        net.jqwik.api.Tuple.of(3, Combinators.combine(index, Arbitraries.of(true, false)).as(Finish::new)),
        net.jqwik.api.Tuple.of(2, index.map(Succeed::new)),
        net.jqwik.api.Tuple.of(1, index.map(Delete::new)),
        net.jqwik.api.Tuple.of(1, index.map(Resume::new)),
        net.jqwik.api.Tuple.of(1, Arbitraries.just(new Restart())));
    return op.list().ofMinSize(1).ofMaxSize(40);
  }

  private static AdmissionEngine engine(ManualClock clock) {
    ClusterQueuePreemption preemption =
        ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.LOWER_PRIORITY);
    return AdmissionEngine.builder().clock(clock.asClock())
        .resourceFlavor(new ResourceFlavor("batch", QueueFixtures.POOL))
        .clusterQueue(ClusterQueue.builder("cq-a").cohort("research")
            .resourceGroup(FlavorQuotas.of("batch", FlavorResourceQuota.of("cpu", "4", "2"))).preemption(preemption)
            .build())
        .clusterQueue(ClusterQueue.builder("cq-b").cohort("research")
            .resourceGroup(FlavorQuotas.of("batch", FlavorResourceQuota.of("cpu", "4"))).preemption(preemption).build())
        .localQueue(LocalQueue.of(NS, "lq-a", "cq-a"))
        .localQueue(LocalQueue.of(NS, "lq-b", "cq-b"))
        .build();
  }

  /** One run: a store, a clock, and the current controller with its engine. */
  private static final class World implements AutoCloseable {
    final ManualClock clock = ManualClock.atEpoch2026();
    final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
    final List<String> names = new ArrayList<>();
    AdmissionEngine engine;
    QueueAdmissionController ctl;
    int reconciles;
    /** Whether the controller runs its cycles once per round ({@code cyclesPerRound}) rather than per reconcile. */
    final boolean perRound;

    World() {
      this(false);
    }

    World(boolean perRound) {
      this.perRound = perRound;
      startController();
    }

    void startController() {
      engine = engine(clock);
      QueueAdmissionController.Builder b = QueueAdmissionController.builder(store, engine).clock(clock).stepping();
      ctl = (perRound ? b.cyclesPerRound() : b).build();
      ctl.start().join();
    }

    /** One reconcile, or with {@code perRound} the end of a round (its cycles) when no key is ready. */
    boolean step() {
      return perRound ? ctl.runOnce() : ctl.controller().runOnce();
    }

    /** Reconciles one key at a time, checking the quota after each. */
    void settle() {
      for (int round = 0; round < 3; round++) {
        int steps = 0;
        while (step()) {
          reconciles++;
          assertWithinQuota();
          assertThat(++steps).as("reconciles of one settle round (a livelock)").isLessThan(2_000);
        }
        clock.advance(Duration.ofSeconds(2));
      }
    }

    List<Job> jobs() {
      return store.list(Job.class, NS).items();
    }

    void assertWithinQuota() {
      Map<String, Long> used = new HashMap<>();
      for (Job j : jobs()) {
        if (running(j) && !j.status().isFinished()) {
          String cq = j.metadata().annotations().get(QueueLabels.ADMISSION).split("/")[0];
          // the pods it still needs: a finished pod's quota is reclaimable (Kueue's ReclaimablePods)
          int needed = j.spec().parallelism() - reclaimable(j);
          used.merge(cq, needed * j.spec().template().spec().effectiveRequests().milliCpu(), Long::sum);
        }
      }
      used.forEach((cq, milli) -> assertThat(milli).as("CPU of running Jobs in %s", cq).isLessThanOrEqualTo(
          LIMIT.get(cq)));
      assertThat(used.values().stream().mapToLong(Long::longValue).sum()).as("CPU of the cohort")
          .isLessThanOrEqualTo(COHORT);
    }

    /** Kueue's ReclaimablePods of a non-indexed Job: parallelism - remaining once fewer remain than parallelism. */
    static int reclaimable(Job j) {
      int parallelism = j.spec().parallelism();
      int completions = j.spec().completions() == null ? parallelism : j.spec().completions();
      int succeeded = j.status().succeeded();
      int remaining = Math.max(completions - succeeded, 0);
      return parallelism > 1 && succeeded > 0 && remaining < parallelism ? parallelism - remaining : 0;
    }

    Set<String> runningNames() {
      // Jobs admitted and not finished
      Set<String> out = new HashSet<>();
      for (Job j : jobs()) {
        if (running(j) && !j.status().isFinished()) {
          out.add(j.metadata().name());
        }
      }
      return out;
    }

    void apply(Op op) {
      if (op instanceof Create c) {
        String name = "j" + names.size();
        names.add(name);
        store.create(QueueFixtures.job(name, QUEUES.get(c.queue()), c.parallelism(), String.valueOf(c.cpu()),
            c.priority(), c.suspend(), 10));
      } else if (op instanceof Finish f) {
        pick(f.index()).filter(QueueFixtures::running).ifPresent(j -> store.updateStatus(
            j.withStatus(new JobStatus(0, 1, 0, null, List.of(new JobCondition(
                f.failed() ? JobCondition.FAILED : JobCondition.COMPLETE, ConditionStatus.True, "", "", clock.now(),
                clock.now())), null, clock.now(), ""))));
      } else if (op instanceof Succeed p) {
        pick(p.index()).filter(QueueFixtures::running)
            .filter(j -> j.spec().parallelism() == 2 && j.status().succeeded() == 0 && !j.status().isFinished())
            // active stays 0 as for every Job here: this world has no Job controller to count a suspended Job's
            // pods down, and a preemptor waits for its victims' active pods to stop
            .ifPresent(j -> store.updateStatus(j.withStatus(new JobStatus(0, 1, 0, null, j.status().conditions(),
                j.status().startTime(), null, ""))));
      } else if (op instanceof Delete d) {
        pick(d.index()).ifPresent(j -> store.delete(Job.class, NS, j.metadata().name(),
            DeleteOptions.background())); // as kubectl delete
      } else if (op instanceof Resume r) {
        pick(r.index()).filter(j -> j.spec().suspend() && !j.status().isFinished())
            .ifPresent(j -> store.update(j.withSpec(j.spec().withSuspend(false))));
      } else {
        Set<String> before = runningNames();
        ctl.close();
        startController();
        settle();
        // a restart re-queues the waiting Jobs afresh (parked ones too), so one may now preempt a running Job;
        // every other Job running before still runs
        for (String name : before) {
          Job j = store.require(Job.class, NS, name);
          if (!running(j)) {
            assertThat(QueueFixtures.quotaReserved(j).reason()).as("%s stopped by the restart", name)
                .isEqualTo(QueueLabels.REASON_PREEMPTED);
          }
        }
      }
      clock.advance(Duration.ofSeconds(1));
    }

    java.util.Optional<Job> pick(int index) {
      if (names.isEmpty()) {
        return java.util.Optional.empty();
      }
      return store.get(Job.class, NS, names.get(index % names.size()));
    }

    /** Once idle: every managed Job is finished, running and admitted, pending, or inadmissible. */
    void assertNoJobLost() {
      int running = 0;
      int pending = 0;
      for (Job j : jobs()) {
        String key = j.metadata().key();
        String queue = j.metadata().labels().get(QueueLabels.QUEUE_NAME);
        if (j.status().isFinished()) {
          assertThat(engine.admission(key)).as("finished %s holds no quota", key).isEmpty();
          continue;
        }
        JobCondition c = QueueFixtures.quotaReserved(j);
        if (queue.equals("lq-missing")) {
          assertThat(j.spec().suspend()).isTrue();
          assertThat(c.reason()).isEqualTo(QueueLabels.REASON_INADMISSIBLE);
          continue;
        }
        String cq = queue.equals("lq-a") ? "cq-a" : "cq-b";
        if (running(j)) {
          running++;
          assertThat(engine.admission(key)).as("running %s is admitted", key).isPresent();
          assertThat(engine.admission(key).orElseThrow().clusterQueue()).isEqualTo(cq);
          assertThat(c.status()).isEqualTo(ConditionStatus.True);
          assertThat(j.spec().template().spec().nodeSelector()).containsEntry("pool", "batch");
        } else {
          pending++;
          assertThat(j.spec().suspend()).as("waiting %s is suspended", key).isTrue();
          assertThat(j.metadata().annotations()).doesNotContainKey(QueueLabels.ADMISSION);
          assertThat(engine.pending(cq)).as("waiting %s is queued", key).contains(key);
          assertThat(c.status()).isEqualTo(ConditionStatus.False);
        }
      }
      assertThat(engine.admittedCount()).isEqualTo(running);
      assertThat(engine.pendingCount()).isEqualTo(pending);
    }

    @Override
    public void close() {
      ctl.close();
      store.close();
    }
  }

  /**
   * Regression (found by the property): a reclaiming head of cq-b preempted a borrowing Job of cq-a, an older cq-b
   * head was tried next and failed, and the victim was admitted again, cycle after cycle; the controller never went
   * idle.
   */
  @Example
  void reclaimOscillation_settles() {
    runningJobsStayWithinQuota_andNoManagedJobIsLost(List.of(
        new Create(1, 1, 0, 0, true), new Resume(0), new Create(1, 1, 2, 2, true), new Create(2, 1, 1, 1, false),
        new Create(1, 2, 0, 2, true), new Create(3, 2, 1, 0, true), new Finish(0, true), new Delete(8),
        new Create(1, 2, 0, 2, false), new Resume(1), new Delete(4), new Create(2, 2, 1, 1, true),
        new Finish(14, true), new Create(1, 2, 0, 0, true), new Create(1, 2, 1, 1, false), new Delete(9),
        new Create(2, 2, 2, 0, true)));
  }

  /**
   * Regression (found by the property): after a restart a Job was preempted and admitted again within one round of
   * cycles, so it stayed in the start gate's set of possibly running Jobs although suspended; it then waited for its
   * own eviction to be written, for ever, admitted but never started.
   */
  @Example
  void preemptedAndReadmittedInOneRound_starts() {
    runningJobsStayWithinQuota_andNoManagedJobIsLost(List.of(
        new Create(1, 1, 0, 0, true), new Create(1, 1, 0, 0, true), new Finish(0, true), new Finish(0, true),
        new Create(1, 1, 0, 0, true), new Create(1, 1, 0, 0, true), new Create(1, 1, 0, 0, true),
        new Create(1, 1, 0, 0, true), new Create(1, 1, 0, 0, true), new Finish(0, true), new Create(1, 1, 0, 0, true),
        new Finish(0, true), new Finish(0, true), new Finish(0, true), new Create(3, 2, 2, 0, true),
        new Create(1, 1, 0, 0, true), new Finish(0, true), new Create(1, 1, 0, 0, true), new Finish(0, true),
        new Create(1, 2, 1, 0, true), new Finish(0, true), new Create(1, 1, 0, 0, true), new Create(1, 2, 0, 1, false),
        new Finish(12, true), new Restart(), new Delete(26), new Create(1, 1, 2, 1, true),
        new Create(2, 2, 1, 1, true), new Resume(4), new Create(3, 1, 1, 0, true), new Create(2, 2, 1, 1, true),
        new Create(1, 2, 1, 2, false), new Create(3, 1, 2, 0, true), new Create(3, 1, 1, 1, true),
        new Create(2, 1, 2, 2, true), new Restart()));
  }

  /**
   * Regression (found by the property with reclaimable pods): a 2-pod Job with one pod done, preempted and admitted
   * again, got an admission of the 1 pod it still needs; the controller took the count for a partial admission its
   * parallelism did not match and stopped and restarted the Job for ever. Kueue changes only a partially admissible
   * Job's parallelism; any other Job runs with its own whatever its admission's count.
   */
  @Example
  void readmittedWithReclaimablePods_runsWithItsOwnParallelism() {
    runningJobsStayWithinQuota_andNoManagedJobIsLost(List.of(new Create(2, 2, 0, 0, true),
        new Create(1, 1, 0, 2, true), new Create(3, 2, 0, 1, true), new Succeed(0), new Create(3, 1, 1, 0, true)));
  }

  @Property(tries = 1000)
  void runningJobsStayWithinQuota_andNoManagedJobIsLost(@ForAll("ops") List<Op> ops) {
    run(new World(), ops);
  }

  /** The same with the cycles run once per round (as in a simulation), after every reconcile of the round. */
  @Property(tries = 1000)
  void cyclesPerRound_runningJobsStayWithinQuota_andNoManagedJobIsLost(@ForAll("ops") List<Op> ops) {
    run(new World(true), ops);
  }

  private static void run(World world, List<Op> ops) {
    try (World w = world) {
      for (Op op : ops) {
        w.apply(op);
        w.settle();
        w.assertNoJobLost();
      }
    }
  }
}
