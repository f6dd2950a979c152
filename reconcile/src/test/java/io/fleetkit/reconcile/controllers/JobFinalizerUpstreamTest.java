package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.AdmissionOperation;
import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.admission.AdmissionVerdict;
import io.fleetkit.api.admission.ValidatingAdmissionPlugin;
import io.fleetkit.api.batch.CompletionMode;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.Lister;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.controllers.internal.FinalizerExpectations;
import io.fleetkit.reconcile.controllers.internal.JobOrphanPodReconciler;
import io.fleetkit.reconcile.controllers.internal.JobReconciler;
import io.fleetkit.reconcile.internal.IndexedCache;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from upstream {@code pkg/controller/job/job_controller_test.go} (kubernetes commit
 * 003e86297d18a8538c9da3619871393f9703bf70): {@code TestFinalizersRemovedExpectations} (1/1),
 * {@code TestFinalizerCleanup} (1/1), {@code TestWatchOrphanPods} (3/3) and {@code TestSyncOrphanPod} (9/9).
 * Upstream's {@code syncJob} and {@code syncOrphanPod} over a fake client with informer caches filled by hand are
 * {@link JobReconciler} and {@link JobOrphanPodReconciler} run once with caches filled by hand ({@link Ctx}) over a
 * store; the tests that run upstream's whole manager run a {@link JobController} in stepping mode. Upstream's fake
 * pod control erring on every patch is an admission plugin refusing pod updates. A pod upstream makes with a
 * {@code deletionTimestamp} is made with the finalizer and deleted, as a store can only hold such a pod; a pod that
 * loses its last finalizer while being deleted is removed by the store, so "the finalizer is removed" is checked as
 * "the pod is gone or has no tracking finalizer". "orphan_pods_by_label_selector" syncs the pod by name: FleetKit's
 * orphan queue is keyed by pod only (upstream's selector keys serve {@code cleanupPodFinalizers} of a deleted Job,
 * which FleetKit maps to the pods' keys).
 */
final class JobFinalizerUpstreamTest {
  private final ManualClock clock = ManualClock.atEpoch2026();

  /** Refuses every pod update while armed: upstream's {@code FakePodControl{Err: ...}} for patches. */
  static final class RefusePodUpdates implements ValidatingAdmissionPlugin {
    boolean armed;

    @Override
    public String name() {
      return "RefusePodUpdates";
    }

    @Override
    public AdmissionVerdict validate(AdmissionRequest request, ObjectStore store) {
      if (armed && request.object() instanceof Pod && request.operation() == AdmissionOperation.UPDATE) {
        return AdmissionVerdict.deny("metadata.finalizers", "fake pod controller error");
      }
      return AdmissionVerdict.allow();
    }
  }

  /** A reconcile context over caches the test fills (upstream's informer indexers), for one sync. */
  static final class Ctx<T extends ApiObject<T>> implements ReconcileContext<T> {
    final ObjectKey key;
    final ObjectStore store;
    final Clock clock;
    final Class<T> primary;
    final Map<Class<?>, IndexedCache<?>> caches;

    Ctx(ObjectKey key, ObjectStore store, Clock clock, Class<T> primary, Map<Class<?>, IndexedCache<?>> caches) {
      this.key = key;
      this.store = store;
      this.clock = clock;
      this.primary = primary;
      this.caches = caches;
    }

    @Override
    public ObjectKey key() {
      return key;
    }

    @Override
    public Optional<T> object() {
      return lister().get(key);
    }

    @Override
    public Lister<T> lister() {
      return lister(primary);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <O extends ApiObject<O>> Lister<O> lister(Class<O> kind) {
      return (Lister<O>) caches.computeIfAbsent(kind, k -> new IndexedCache<>(Map.of()));
    }

    @Override
    public ObjectStore store() {
      return store;
    }

    @Override
    public Clock clock() {
      return clock;
    }

    @Override
    public int retries() {
      return 0;
    }

    @SuppressWarnings("unchecked")
    <O extends ApiObject<O>> void add(O o) {
      ((IndexedCache<O>) lister((Class<O>) o.getClass())).put(o);
    }
  }

  private static Pod newPod(Job job, String name, PodPhase phase) {
    // upstream's newPodList: the job's selector labels, its controller reference, the tracking finalizer
    return Pod.of(ObjectMeta.builder().namespace("default").name(name).label("foo", "bar")
            .ownerReference(OwnerReference.controllerOf(job)).finalizer(Job.TRACKING_FINALIZER).build(),
        job.spec().template().spec());
  }

  private static boolean finalizerRemoved(ObjectStore store, String name) {
    Optional<Pod> p = store.get(Pod.class, "default", name);
    return p.isEmpty() || !p.get().metadata().finalizers().contains(Job.TRACKING_FINALIZER);
  }

  // upstream: TestFinalizersRemovedExpectations
  @Test
  void finalizersRemovedExpectations_failedRemovalsAreNotExpected_observedOnesAreDropped() {
    RefusePodUpdates podControl = new RefusePodUpdates();
    try (ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock())
        .admission(AdmissionChain.of(podControl)).build()) {
      Job job = store.create(JobUpstreamCasesTest.newJob(2, 2, 6, CompletionMode.NonIndexed));
      ObjectKey key = ObjectKey.of(job);
      List<Pod> pods = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        Pod p = store.create(newPod(job, "pod-" + i, PodPhase.Pending));
        PodPhase phase = i < 2 ? PodPhase.Succeeded : PodPhase.Failed;
        pods.add(store.updateStatus(p.withStatus(p.status().withPhase(phase).withContainerStatuses(List.of(
            new ContainerStatus("foo", false, 0, ContainerState.terminated(phase == PodPhase.Failed ? 1 : 0, "",
                clock.now()))))))); // the failures' backoff has passed by the sync below
      }
      clock.advance(java.time.Duration.ofHours(1));
      Set<String> uids = Set.of(pods.get(0).metadata().uid(), pods.get(1).metadata().uid(),
          pods.get(2).metadata().uid(), pods.get(3).metadata().uid());
      JobReconciler reconciler = new JobReconciler(PodNameSuffixes.seeded(1, "job"));
      podControl.armed = true;
      Throwable err = catchThrowable(() -> reconciler.reconcile(ctx(store, key, pods)));
      assertThat(err).as("the pod control errs").isNotNull();
      assertThat(reconciler.finalizerExpectations().expectedUids(key))
          .as("no expectation for the removals that failed").isEmpty();

      podControl.armed = false;
      reconciler.reconcile(ctx(store, key, pods)); // the cache still shows the pods with the finalizer
      assertThat(reconciler.finalizerExpectations().expectedUids(key)).isEqualTo(uids);

      // the pod informer catches up: finalizer removed; removed and deleted; deleted but held by it; gone
      FinalizerExpectations handler = reconciler.finalizerExpectations();
      handler.onUpdate(pods.get(0), without(pods.get(0)));
      Pod marked1 = without(pods.get(1));
      handler.onUpdate(pods.get(1), marked1.withMetadata(marked1.metadata().toBuilder()
          .deletionTimestamp(clock.now()).build()));
      handler.onUpdate(pods.get(2), pods.get(2).withMetadata(pods.get(2).metadata().toBuilder()
          .deletionTimestamp(clock.now()).build()));
      handler.onDelete(pods.get(3), false);
      assertThat(handler.expectedUids(key)).containsExactly(pods.get(2).metadata().uid());
    }
  }

  private static Pod without(Pod p) {
    return p.withMetadata(p.metadata().toBuilder().finalizers(List.of()).build());
  }

  /** One sync's context: the Job as the store has it now, the pods as the (stale) cache has them. */
  private Ctx<Job> ctx(ObjectStore store, ObjectKey key, List<Pod> cachedPods) {
    Ctx<Job> c = new Ctx<>(key, store, clock.asClock(), Job.class, new java.util.HashMap<>());
    c.add(store.require(Job.class, key.namespace(), key.name()));
    cachedPods.forEach(c::add);
    return c;
  }

  // upstream: TestFinalizerCleanup
  @Test
  void finalizerCleanup_jobMarkedComplete_podLosesTheFinalizer() {
    try (ObjectStore store = Sim.store(clock);
        JobController c = JobController.builder(store).clock(clock).stepping().build()) {
      c.start().join();
      store.create(JobUpstreamCasesTest.newJob(1, 1, 1, CompletionMode.NonIndexed));
      c.runUntilIdle();
      List<Pod> pods = store.list(Pod.class, "default").items();
      assertThat(pods).hasSize(1);
      assertThat(pods.get(0).metadata().finalizers()).as("created with the tracking finalizer")
          .contains(Job.TRACKING_FINALIZER);

      Job job = store.require(Job.class, "default", "foobar");
      List<JobCondition> conditions = new ArrayList<>(job.status().conditions());
      conditions.add(new JobCondition(JobCondition.COMPLETE, ConditionStatus.True, "", "", null, null));
      store.updateStatus(job.withStatus(job.status().withConditions(conditions)));
      c.runUntilIdle();

      assertThat(finalizerRemoved(store, pods.get(0).metadata().name())).isTrue();
    }
  }

  record OrphanCase(String name, @Nullable Job job, boolean inCache) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<OrphanCase> watchOrphanPods() {
    Job finished = JobUpstreamCasesTest.newJob(2, 2, 6, CompletionMode.NonIndexed);
    return Stream.of(
        new OrphanCase("job_does_not_exist", JobUpstreamCasesTest.newJob(2, 2, 6, CompletionMode.NonIndexed),
            false),
        new OrphanCase("orphan", null, false),
        new OrphanCase("job_finished", finished, true));
  }

  // upstream: TestWatchOrphanPods (a pod being deleted with the finalizer, whose Job is gone, finished, or who has
  // none, loses it through the orphan queue)
  @ParameterizedTest(name = "{0}")
  @MethodSource("watchOrphanPods")
  void watchOrphanPods_finalizerRemoved(OrphanCase tc) {
    try (ObjectStore store = Sim.store(clock);
        JobController c = JobController.builder(store).clock(clock).stepping().build()) {
      c.start().join();
      Job job = tc.job();
      if (job != null && tc.inCache()) {
        job = store.create(job);
        job = store.updateStatus(job.withStatus(job.status().withConditions(List.of(
            new JobCondition(JobCondition.COMPLETE, ConditionStatus.True, "", "", null, null)))));
      } else if (job != null) {
        job = job.withMetadata(job.metadata().toBuilder().uid("uid-of-a-job-not-in-the-store").build());
      }
      String name = tc.name().replace('_', '-'); // upstream's names are not valid pod names
      ObjectMeta.Builder m = ObjectMeta.builder().namespace("default").name(name).finalizer(Job.TRACKING_FINALIZER);
      if (job != null) {
        m.label("foo", "bar").ownerReference(OwnerReference.controllerOf(job));
      }
      Pod pod = store.create(Pod.of(m.build(), JobUpstreamCasesTest.newJob(1, 1, 1, CompletionMode.NonIndexed)
          .spec().template().spec()));
      store.delete(Pod.class, "default", pod.metadata().name());
      assertThat(store.require(Pod.class, "default", name).metadata().deletionTimestamp()).isNotNull();
      c.runUntilIdle();
      assertThat(finalizerRemoved(store, name)).as("the finalizer is removed").isTrue();
    }
  }

  record SyncOrphanCase(String name, @Nullable OwnerReference owner, @Nullable Job job, boolean wantRemoved,
      Map<String, String> labels) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static OwnerReference owner(String apiVersion, String kind, String name, boolean controller) {
    return new OwnerReference(apiVersion, kind, name, "111", controller, controller);
  }

  private static Job jobJ(boolean finished) {
    Job j = JobUpstreamCasesTest.newJob(2, 2, 6, CompletionMode.NonIndexed);
    j = j.withMetadata(j.metadata().toBuilder().name("j").uid("111").build());
    if (finished) {
      j = j.withStatus(j.status().withConditions(List.of(
          new JobCondition(JobCondition.COMPLETE, ConditionStatus.True, "", "", null, null))));
    }
    return j;
  }

  static Stream<SyncOrphanCase> syncOrphanPod() {
    return Stream.of(
        new SyncOrphanCase("controlled_by_existing_running_job", owner("batch/v1", "Job", "j", true), jobJ(false),
            false, Map.of()),
        new SyncOrphanCase("controlled_by_existing_finished_job", owner("batch/v1", "Job", "j", true), jobJ(true),
            true, Map.of()),
        new SyncOrphanCase("controlled_by_non_existing_job", owner("batch/v1", "Job", "j", true), null, true,
            Map.of()),
        new SyncOrphanCase("controlled_by_cronjob", owner("batch/v1", "CronJob", "cj", true), null, false, Map.of()),
        new SyncOrphanCase("not_controlled", null, null, true, Map.of()),
        new SyncOrphanCase("controlled_by_custom_crd", owner("example/v1", "Job", "job", true), null, false,
            Map.of()),
        new SyncOrphanCase("owned_by_existing_running_job", owner("batch/v1", "Job", "j", false), jobJ(false), true,
            Map.of()),
        new SyncOrphanCase("owned_by_custom_crd", owner("example/v1", "Job", "job", false), null, true, Map.of()),
        new SyncOrphanCase("orphan_pods_by_label_selector", null, null, true, Map.of("app", "test")));
  }

  // upstream: TestSyncOrphanPod (one syncOrphanPod of a pod being deleted with the finalizer; the Job, when the case
  // has one, is in the Job cache only)
  @ParameterizedTest(name = "{0}")
  @MethodSource("syncOrphanPod")
  void syncOrphanPod_removesTheFinalizerOnlyFromPodsNoJobCounts(SyncOrphanCase tc) {
    try (ObjectStore store = Sim.store(clock)) {
      ObjectMeta.Builder m = ObjectMeta.builder().namespace("default").name(tc.name().replace('_', '-'))
          .labels(tc.labels()).finalizer(Job.TRACKING_FINALIZER);
      if (tc.owner() != null) {
        m.ownerReference(tc.owner());
      }
      Pod pod = store.create(Pod.of(m.build(), JobUpstreamCasesTest.newJob(1, 1, 1, CompletionMode.NonIndexed)
          .spec().template().spec()));
      pod = store.delete(Pod.class, "default", pod.metadata().name());
      Ctx<Pod> ctx = new Ctx<>(ObjectKey.of(pod), store, clock.asClock(), Pod.class, new java.util.HashMap<>());
      ctx.add(pod);
      if (tc.job() != null) {
        ctx.add(tc.job());
      }
      new JobOrphanPodReconciler().reconcile(ctx);
      assertThat(finalizerRemoved(store, pod.metadata().name())).as("finalizer removed").isEqualTo(tc.wantRemoved());
    }
  }

  // FleetKit's own: upstream's orphan queue gets a controlled pod whose Job it cannot find only from the pod's
  // deletion; a live pod whose Job the cache has not seen yet keeps the finalizer
  @Test
  void syncOrphanPod_controlledLivePodOfAJobNotInTheCache_keepsTheFinalizer() {
    try (ObjectStore store = Sim.store(clock)) {
      Pod pod = store.create(Pod.of(ObjectMeta.builder().namespace("default").name("fresh")
              .ownerReference(owner("batch/v1", "Job", "j", true)).finalizer(Job.TRACKING_FINALIZER).build(),
          JobUpstreamCasesTest.newJob(1, 1, 1, CompletionMode.NonIndexed).spec().template().spec()));
      Ctx<Pod> ctx = new Ctx<>(ObjectKey.of(pod), store, clock.asClock(), Pod.class, new java.util.HashMap<>());
      ctx.add(pod);
      new JobOrphanPodReconciler().reconcile(ctx);
      assertThat(finalizerRemoved(store, "fresh")).isFalse();
    }
  }
}
