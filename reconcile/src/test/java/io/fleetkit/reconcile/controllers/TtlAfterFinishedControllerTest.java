package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobSpec;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.metrics.Counter;
import io.fleetkit.api.metrics.Gauge;
import io.fleetkit.api.metrics.Histogram;
import io.fleetkit.api.metrics.MetricDescriptor;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.DeletionPropagation;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.reconcile.GarbageCollector;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.metrics.TtlAfterFinishedMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The TTL-after-finished controller in stepping mode against the in-memory store on a {@link ManualClock} (the
 * controller reads no other clock). Jobs are finished by hand: no Job controller runs.
 */
final class TtlAfterFinishedControllerTest {
  private static final Instant START = Instant.parse("2026-03-02T09:30:00Z");
  private final ManualClock clock = new ManualClock(START);

  private TtlAfterFinishedController controller(ObjectStore store, MetricsRegistry metrics) {
    TtlAfterFinishedController c = TtlAfterFinishedController.builder(store).clock(clock).metrics(metrics)
        .stepping().build();
    c.start().join();
    return c;
  }

  private TtlAfterFinishedController controller(ObjectStore store) {
    TtlAfterFinishedController c = TtlAfterFinishedController.builder(store).clock(clock).stepping().build();
    c.start().join();
    return c;
  }

  private static Job job(String name, @Nullable Integer ttl) {
    PodSpec pod = PodSpec.builder().restartPolicy(RestartPolicy.Never).container("c", "busybox", ResourceList.EMPTY)
        .build();
    return Job.builder().namespace("ns").name(name).templateLabels(Map.of("app", name)).podSpec(pod)
        .ttlSecondsAfterFinished(ttl).build();
  }

  /** Marks the stored Job finished now with a condition of {@code type}. */
  private Job finish(ObjectStore store, String name, String type) {
    Job cur = store.require(Job.class, "ns", name);
    return store.updateStatus(cur.withStatus(new JobStatus(0, type.equals(JobCondition.COMPLETE) ? 1 : 0,
        type.equals(JobCondition.FAILED) ? 1 : 0, null,
        List.of(new JobCondition(type, ConditionStatus.True, "", "", clock.now(), clock.now())), START,
        type.equals(JobCondition.COMPLETE) ? clock.now() : null, "")));
  }

  private static Job withTtl(ObjectStore store, String name, @Nullable Integer ttl) {
    Job cur = store.require(Job.class, "ns", name);
    JobSpec s = cur.spec();
    return store.update(cur.withSpec(new JobSpec(s.parallelism(), s.completions(), s.completionMode(),
        s.backoffLimit(), s.activeDeadlineSeconds(), ttl, s.suspend(), s.selector(), s.template())));
  }

  private void advance(TtlAfterFinishedController c, Duration d) {
    clock.advance(d);
    c.runUntilIdle();
  }

  /**
   * Whether the Job is there and not being deleted. The controller deletes with {@code propagationPolicy:
   * Foreground}, so a deleted Job stays, marked with the {@code foregroundDeletion} finalizer, until a garbage
   * collector has deleted its pods; none runs here (see {@link #deletedInForeground_collectorRemovesPodsThenJob}).
   */
  private static boolean exists(ObjectStore store, String name) {
    return store.get(Job.class, "ns", name).filter(j -> j.metadata().deletionTimestamp() == null).isPresent();
  }

  @Test
  void finishedJob_keptUntilTheTtlPasses_thenDeleted_deletionDurationObserved() {
    Recording metrics = new Recording(true);
    try (ObjectStore store = Sim.store(clock); TtlAfterFinishedController c = controller(store, metrics)) {
      store.create(job("pi", 100));
      c.runUntilIdle();
      advance(c, Duration.ofMinutes(10));
      finish(store, "pi", JobCondition.COMPLETE);
      c.runUntilIdle();
      advance(c, Duration.ofSeconds(99));
      assertThat(exists(store, "pi")).as("1 s of TTL left").isTrue();
      assertThat(metrics.observed).isEmpty();
      advance(c, Duration.ofSeconds(1));
      assertThat(exists(store, "pi")).as("the TTL has passed").isFalse();
      Job marked = store.require(Job.class, "ns", "pi");
      assertThat(marked.metadata().finalizers()).as("deleted with propagationPolicy Foreground")
          .containsExactly(DeletionPropagation.FOREGROUND_FINALIZER);
      assertThat(marked.metadata().deletionTimestamp()).isEqualTo(clock.now());
      assertThat(metrics.observed).as("deleted the instant it expired").containsExactly(0.0);
    }
  }

  @Test
  void failedJob_zeroTtl_deletedAtOnce() {
    try (ObjectStore store = Sim.store(clock); TtlAfterFinishedController c = controller(store)) {
      store.create(job("pi", 0));
      c.runUntilIdle();
      finish(store, "pi", JobCondition.FAILED);
      c.runUntilIdle();
      assertThat(exists(store, "pi")).isFalse();
    }
  }

  @Test
  void ttlRaisedBeforeExpiry_deletionPostponed() {
    try (ObjectStore store = Sim.store(clock); TtlAfterFinishedController c = controller(store)) {
      store.create(job("pi", 60));
      finish(store, "pi", JobCondition.COMPLETE);
      c.runUntilIdle();
      advance(c, Duration.ofSeconds(30));
      withTtl(store, "pi", 120);
      c.runUntilIdle();
      advance(c, Duration.ofSeconds(31));
      assertThat(exists(store, "pi")).as("61 s after finishing, TTL now 120 s").isTrue();
      advance(c, Duration.ofSeconds(58));
      assertThat(exists(store, "pi")).as("119 s").isTrue();
      advance(c, Duration.ofSeconds(1));
      assertThat(exists(store, "pi")).as("120 s").isFalse();
    }
  }

  @Test
  void ttlLoweredBelowTheTimeFinished_deletedOnTheUpdate() {
    try (ObjectStore store = Sim.store(clock); TtlAfterFinishedController c = controller(store)) {
      store.create(job("pi", 3600));
      finish(store, "pi", JobCondition.COMPLETE);
      c.runUntilIdle();
      advance(c, Duration.ofMinutes(5));
      assertThat(exists(store, "pi")).isTrue();
      withTtl(store, "pi", 60);
      c.runUntilIdle();
      assertThat(exists(store, "pi")).isFalse();
    }
  }

  @Test
  void ttlRemovedBeforeExpiry_neverDeleted() {
    try (ObjectStore store = Sim.store(clock); TtlAfterFinishedController c = controller(store)) {
      store.create(job("pi", 60));
      finish(store, "pi", JobCondition.COMPLETE);
      c.runUntilIdle();
      advance(c, Duration.ofSeconds(30));
      withTtl(store, "pi", null);
      c.runUntilIdle();
      advance(c, Duration.ofSeconds(31));
      advance(c, Duration.ofDays(2));
      assertThat(exists(store, "pi")).isTrue();
    }
  }

  @Test
  void unfinishedJob_untouched_finishedJobWithoutTtl_untouched() {
    try (ObjectStore store = Sim.store(clock); TtlAfterFinishedController c = controller(store)) {
      store.create(job("running", 0));
      store.create(job("keep", null));
      finish(store, "keep", JobCondition.COMPLETE);
      c.runUntilIdle();
      advance(c, Duration.ofDays(1));
      assertThat(exists(store, "running")).isTrue();
      assertThat(exists(store, "keep")).isTrue();
      assertThat(clock.pendingTasks()).as("nothing waits for a TTL").isZero();
    }
  }

  /** The re-read before deleting: a Job replaced under the same name is judged by its own status and TTL. */
  @Test
  void jobReplacedUnderTheSameName_newOneNotDeletedForTheOldOnesTtl() {
    try (ObjectStore store = Sim.store(clock); TtlAfterFinishedController c = controller(store)) {
      store.create(job("pi", 60));
      finish(store, "pi", JobCondition.COMPLETE);
      c.runUntilIdle();
      advance(c, Duration.ofSeconds(30));
      store.delete(Job.class, "ns", "pi", DeleteOptions.background()); // as kubectl delete
      Job second = store.create(job("pi", 60));
      c.runUntilIdle();
      advance(c, Duration.ofMinutes(5));
      assertThat(store.require(Job.class, "ns", "pi").metadata().uid()).isEqualTo(second.metadata().uid());
      finish(store, "pi", JobCondition.COMPLETE);
      c.runUntilIdle();
      advance(c, Duration.ofSeconds(60));
      assertThat(exists(store, "pi")).as("the second Job's own TTL").isFalse();
    }
  }

  /**
   * Kube's controller deletes in the foreground ({@code ttlafterfinished_controller.go}: "Cascade deletes the Jobs if
   * TTL truly expires"): with a garbage collector running, the Job's pods go first, then the Job.
   */
  @Test
  void deletedInForeground_collectorRemovesPodsThenJob() {
    try (ObjectStore store = Sim.store(clock); TtlAfterFinishedController c = controller(store);
         GarbageCollector gc = GarbageCollector.builder(store).watch(Job.class, Job.API_VERSION, Job.KIND)
             .watch(Pod.class).stepping().clock(clock).build()) {
      gc.start().join();
      Job pi = store.create(job("pi", 0));
      store.create(Pod.of(ObjectMeta.of("ns", "pi-0").toBuilder().ownerReference(new OwnerReference(
          Job.API_VERSION, Job.KIND, "pi", pi.metadata().uid(), true, true)).build(),
          PodSpec.builder().restartPolicy(RestartPolicy.Never).container("c", "busybox", ResourceList.EMPTY)
              .build()));
      List<String> removed = new ArrayList<>();
      try (var w1 = store.watch(Job.class, store.resourceVersion(), e -> {
             if (e.type() == WatchEventType.DELETED) {
               removed.add("Job " + e.object().metadata().name());
             }
           });
           var w2 = store.watch(Pod.class, store.resourceVersion(), e -> {
             if (e.type() == WatchEventType.DELETED) {
               removed.add("Pod " + e.object().metadata().name());
             }
           })) {
        gc.runUntilIdle();
        finish(store, "pi", JobCondition.COMPLETE);
        c.runUntilIdle();
        assertThat(store.require(Job.class, "ns", "pi").metadata().finalizers())
            .containsExactly(DeletionPropagation.FOREGROUND_FINALIZER);
        gc.runUntilIdle();
        assertThat(store.get(Job.class, "ns", "pi")).isEmpty();
        assertThat(store.get(Pod.class, "ns", "pi-0")).isEmpty();
        assertThat(removed).containsExactly("Pod pi-0", "Job pi");
      }
    }
  }

  /** A finished Job whose condition lacks its transition time is retried, never deleted on a guess. */
  @Test
  void finishedWithoutTransitionTime_notDeleted_retried() {
    try (ObjectStore store = Sim.store(clock); TtlAfterFinishedController c = controller(store)) {
      store.create(job("pi", 0));
      Job cur = store.require(Job.class, "ns", "pi");
      store.updateStatus(cur.withStatus(new JobStatus(0, 1, 0, null,
          List.of(new JobCondition(JobCondition.COMPLETE, ConditionStatus.True, "", "", null, null)), null, null,
          "")));
      c.runUntilIdle();
      advance(c, Duration.ofMinutes(30));
      assertThat(exists(store, "pi")).isTrue();
      assertThat(c.controller().queue().numRequeues(io.fleetkit.reconcile.ObjectKey.of(cur))).isPositive();
    }
  }

  /** A disabled registry (as {@link MetricsRegistry#NOOP}) is not even asked for the series. */
  @Test
  void disabledRegistry_histogramNotAskedFor() {
    Recording metrics = new Recording(false);
    try (ObjectStore store = Sim.store(clock); TtlAfterFinishedController c = controller(store, metrics)) {
      store.create(job("pi", 0));
      finish(store, "pi", JobCondition.COMPLETE);
      c.runUntilIdle();
      assertThat(exists(store, "pi")).isFalse();
    }
    assertThat(metrics.asked).doesNotContain(TtlAfterFinishedMetrics.JOB_DELETION_DURATION.name());
    assertThat(metrics.observed).isEmpty();
  }

  @Test
  void build_defaultName_kubeControllerManagersName() {
    try (ObjectStore store = Sim.store(clock); TtlAfterFinishedController c = controller(store)) {
      assertThat(c.controller().name()).isEqualTo("ttl-after-finished");
    }
  }

  @Test
  void metric_upstreamNameAndBuckets() {
    MetricDescriptor d = TtlAfterFinishedMetrics.JOB_DELETION_DURATION;
    assertThat(d.name()).isEqualTo("ttl_after_finished_controller_job_deletion_duration_seconds");
    assertThat(d.type()).isEqualTo(io.fleetkit.api.metrics.MetricType.HISTOGRAM);
    assertThat(d.help()).isEqualTo("The time it took to delete the job since it became eligible for deletion");
    assertThat(d.labelNames()).isEmpty();
    // ExponentialBuckets(0.1, 2, 14): 0.1, 0.2, ..., 819.2
    assertThat(d.buckets()).hasSize(14).startsWith(0.1, 0.2, 0.4).endsWith(819.2);
  }

  /** Records the histogram's observations; the other series are not expected. */
  private static final class Recording implements MetricsRegistry {
    final List<Double> observed = new ArrayList<>();
    final List<String> asked = new ArrayList<>();
    private final boolean enabled;

    Recording(boolean enabled) {
      this.enabled = enabled;
    }

    @Override
    public boolean enabled() {
      return enabled;
    }

    @Override
    public Counter counter(MetricDescriptor metric, String... labelValues) {
      asked.add(metric.name());
      return amount -> { };
    }

    @Override
    public Gauge gauge(MetricDescriptor metric, String... labelValues) {
      asked.add(metric.name());
      return new Gauge() {
        @Override
        public void set(double value) { }

        @Override
        public void add(double delta) { }
      };
    }

    @Override
    public Histogram histogram(MetricDescriptor metric, String... labelValues) {
      asked.add(metric.name());
      if (metric.equals(TtlAfterFinishedMetrics.JOB_DELETION_DURATION)) {
        return observed::add;
      }
      return value -> { };
    }
  }
}
