package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.framework.Binder;
import io.fleetkit.api.framework.PermitResult;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.testing.LambdaPlugins;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The embedded path (a store, {@link StoreScheduler}, a scheduler binding through {@link StoreBinder}) records failed
 * attempts on the pod as kube-scheduler's {@code handleSchedulingFailure}: {@code PodScheduled=False} with reason
 * {@code Unschedulable} (or {@code SchedulerError}) and the FitError text, and the nomination; only when they change;
 * the pod's own update event does not re-queue it; binding turns the condition True and clears the nomination.
 */
final class StoreSchedulingFailureTest {
  private final ManualClock clock = ManualClock.atEpoch2026();

  private static PodCondition scheduled(Pod p) {
    PodCondition c = p.status().condition(PodCondition.POD_SCHEDULED);
    assertThat(c).as("PodScheduled of " + p.metadata().key()).isNotNull();
    return c;
  }

  @Test
  void unschedulablePod_getsTheFitError_writtenOnlyWhenItChanges_untilItIsBound() {
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
        Scheduler s = Scheduler.builder().clock(clock).store(store).build();
        StoreScheduler feed = s.attach(store)) {
      store.create(node("n1", 1000, 4096, 110));
      store.create(pod("big", 2000, 100));

      ScheduleResult first = s.runUntilIdle().get(0);
      // more cpu than the node has at all: upstream's NodeResourcesFit calls that unresolvable
      assertThat(first.code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
      assertThat(first.message()).startsWith("0/1 nodes are available: 1 Insufficient cpu.");
      Pod failed = store.require(Pod.class, "default", "big");
      PodCondition c = scheduled(failed);
      assertThat(c.status()).isEqualTo(ConditionStatus.False);
      assertThat(c.reason()).isEqualTo(PodCondition.REASON_UNSCHEDULABLE);
      assertThat(c.message()).isEqualTo(first.message());
      assertThat(c.lastTransitionTime()).isEqualTo(clock.instant());
      assertThat(failed.status().nominatedNodeName()).isEmpty();
      Instant transition = c.lastTransitionTime();

      // the write's own update event left the pod parked: nothing to retry
      assertThat(s.pending()).singleElement()
          .satisfies(p -> assertThat(p.queue()).isEqualTo(PendingPod.Queue.UNSCHEDULABLE));
      assertThat(s.runUntilIdle()).isEmpty();

      // retried after podMaxInUnschedulablePodsDuration with the same diagnosis: no write
      clock.advance(Duration.ofMinutes(6));
      assertThat(s.runUntilIdle()).singleElement().satisfies(r -> {
        assertThat(r.code()).isEqualTo(first.code());
        assertThat(r.message()).isEqualTo(first.message());
      });
      assertThat(store.require(Pod.class, "default", "big")).isEqualTo(failed);

      // a new diagnosis is written; the status stays False, so the transition time stays
      clock.advance(Duration.ofSeconds(30));
      store.create(node("n2", 4000, 4096, 110).toBuilder().unschedulable(true).build()); // has room: re-queues
      ScheduleResult third = s.runUntilIdle().get(0);
      assertThat(third.message())
          .startsWith("0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable.");
      Pod refailed = store.require(Pod.class, "default", "big");
      assertThat(refailed.metadata().resourceVersion()).isNotEqualTo(failed.metadata().resourceVersion());
      assertThat(scheduled(refailed).message()).isEqualTo(third.message());
      assertThat(scheduled(refailed).lastTransitionTime()).isEqualTo(transition);

      // room at last: bound, PodScheduled=True
      clock.advance(Duration.ofSeconds(30));
      store.create(node("n3", 4000, 4096, 110));
      assertThat(s.runUntilIdle()).extracting(ScheduleResult::nodeName).containsExactly("n3");
      Pod bound = store.require(Pod.class, "default", "big");
      assertThat(bound.spec().nodeName()).isEqualTo("n3");
      assertThat(scheduled(bound).status()).isEqualTo(ConditionStatus.True);
      assertThat(scheduled(bound).reason()).isEmpty();
      assertThat(scheduled(bound).message()).isEmpty();
      assertThat(bound.status().nominatedNodeName()).isEmpty();
      assertThat(feed.scheduler()).isSameAs(s);
    }
  }

  @Test
  void preemption_writesTheNomination_thenBindingClearsIt() {
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
        Scheduler s = Scheduler.builder().clock(clock).store(store).build();
        StoreScheduler feed = s.attach(store)) {
      store.create(node("n1", 1000, 4096, 110));
      store.create(pod("low", 800, 100, 0).withNodeName("n1"));
      store.create(pod("high", 500, 100, 1000));

      ScheduleResult r = s.scheduleOne();
      assertThat(r).isNotNull();
      assertThat(r.code()).isEqualTo(Status.Code.UNSCHEDULABLE);
      assertThat(r.nominatedNodeName()).isEqualTo("n1");
      assertThat(r.victims()).containsExactly("default/low");
      Pod nominated = store.require(Pod.class, "default", "high");
      assertThat(nominated.status().nominatedNodeName()).isEqualTo("n1");
      assertThat(scheduled(nominated).reason()).isEqualTo(PodCondition.REASON_UNSCHEDULABLE);
      assertThat(scheduled(nominated).message()).isEqualTo(r.message());
      assertThat(r.message()).startsWith("0/1 nodes are available: 1 Insufficient cpu.");
      // the victim is deleted with its own grace period: terminating, it holds its cpu until its kubelet ends it
      assertThat(store.require(Pod.class, "default", "low").metadata().deletionTimestamp()).isNotNull();
      assertThat(s.runUntilIdle()).as("the preemptor waits for the victim to go").isEmpty();
      store.delete(Pod.class, "default", "low", DeleteOptions.gracePeriod(0));

      clock.advance(Duration.ofSeconds(2)); // the victim's deletion during the attempt sent the preemptor to backoff
      assertThat(s.runUntilIdle()).extracting(ScheduleResult::nodeName).containsExactly("n1");
      Pod bound = store.require(Pod.class, "default", "high");
      assertThat(bound.spec().nodeName()).isEqualTo("n1");
      assertThat(bound.status().nominatedNodeName()).isEmpty();
      assertThat(scheduled(bound).status()).isEqualTo(ConditionStatus.True);
      assertThat(feed.scheduler()).isSameAs(s);
    }
  }

  /** A binder whose first binding fails, recording failures through the store binder it wraps. */
  static final class FailingOnceBinder implements Binder {
    private final StoreBinder delegate;
    private final AtomicBoolean failed = new AtomicBoolean();

    FailingOnceBinder(StoreBinder delegate) {
      this.delegate = delegate;
    }

    @Override
    public Status bind(Pod pod, String nodeName) {
      return failed.compareAndSet(false, true) ? Status.error("binding pod " + pod.metadata().key() + ": injected")
          : delegate.bind(pod, nodeName);
    }

    @Override
    public void schedulingFailed(Pod pod, PodCondition condition, @Nullable String nominatedNodeName) {
      delegate.schedulingFailed(pod, condition, nominatedNodeName);
    }
  }

  @Test
  void bindingError_writesSchedulerError_thenTheRetryBindsIt() {
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
        Scheduler s = Scheduler.builder().clock(clock).binder(new FailingOnceBinder(new StoreBinder(store, clock)))
            .build();
        StoreScheduler feed = s.attach(store)) {
      store.create(node("n1", 1000, 4096, 110));
      store.create(pod("a", 100, 10));

      assertThat(s.runUntilIdle()).singleElement().satisfies(r -> {
        assertThat(r.code()).isEqualTo(Status.Code.ERROR);
        assertThat(r.message()).isEqualTo("binding pod default/a: injected");
      });
      PodCondition c = scheduled(store.require(Pod.class, "default", "a"));
      assertThat(c.status()).isEqualTo(ConditionStatus.False);
      assertThat(c.reason()).isEqualTo(PodCondition.REASON_SCHEDULER_ERROR);
      assertThat(c.message()).isEqualTo("binding pod default/a: injected");

      clock.advance(Duration.ofSeconds(2)); // past the backoff
      assertThat(s.runUntilIdle()).extracting(ScheduleResult::nodeName).containsExactly("n1");
      assertThat(scheduled(store.require(Pod.class, "default", "a")).status()).isEqualTo(ConditionStatus.True);
      assertThat(feed.scheduler()).isSameAs(s);
    }
  }

  @Test
  void waitingOnPermit_writesNothing_thenItsTimeoutIsRecorded() {
    PluginRegistry reg = PluginRegistry.defaults().with("Gate",
        h -> LambdaPlugins.permit("Gate", (p, n) -> PermitResult.waitFor(Duration.ofSeconds(10))));
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
        Scheduler s = Scheduler.builder().clock(clock).store(store).registry(reg)
            .profile(DefaultPlugins.profile().toBuilder().plugin("Gate").build()).build();
        StoreScheduler feed = s.attach(store)) {
      store.create(node("n1", 1000, 4096, 110));
      Pod created = store.create(pod("p", 100, 10));

      assertThat(s.runUntilIdle()).singleElement()
          .satisfies(r -> assertThat(r.code()).isEqualTo(Status.Code.WAIT));
      assertThat(store.require(Pod.class, "default", "p")).as("no write while Permit holds it").isEqualTo(created);

      clock.advance(Duration.ofSeconds(10));
      s.runUntilIdle();
      PodCondition c = scheduled(store.require(Pod.class, "default", "p"));
      assertThat(c.status()).isEqualTo(ConditionStatus.False);
      assertThat(c.reason()).isEqualTo(PodCondition.REASON_UNSCHEDULABLE);
      assertThat(c.message()).isEqualTo("rejected due to timeout after waiting 10s at plugin Gate");
      assertThat(feed.scheduler()).isSameAs(s);
    }
  }

  /**
   * The pod's own updates are events for the plugins that rejected it (kube's queue with hints): a status write, a
   * resourceVersion, generation or finalizer change, and a label change are nothing NodeResourcesFit registered, so the
   * pod stays parked (kube re-queues on any such change only with queueing hints off); a request lowered is
   * its {@code TargetPod/UpdatePodScaleDown}, and the pod is retried and fits.
   */
  @Test
  void statusOnlyOrLabelUpdate_leavesAnUnschedulablePodParked_aScaleDownMovesIt() {
    try (Scheduler s = Scheduler.builder().clock(clock).build()) {
      s.addNode(node("n1", 1000, 4096, 110));
      Pod big = pod("big", 2000, 100);
      s.addPod(big);
      assertThat(s.runUntilIdle()).singleElement()
          .satisfies(r -> assertThat(r.code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE));

      Pod statusOnly = big.withStatus(big.status()
          .withCondition(PodCondition.of(PodCondition.POD_SCHEDULED, ConditionStatus.False,
              PodCondition.REASON_UNSCHEDULABLE, "0/1 nodes are available: 1 Insufficient cpu.", clock.instant()))
          .withNominatedNodeName(""))
          .withMetadata(big.metadata().toBuilder().resourceVersion("7").generation(3)
              .finalizers(List.of("example.com/keep")).build());
      s.updatePod(statusOnly);
      assertThat(s.pending()).singleElement()
          .satisfies(p -> assertThat(p.queue()).isEqualTo(PendingPod.Queue.UNSCHEDULABLE));
      assertThat(s.runUntilIdle()).isEmpty();

      Pod labelled = statusOnly.withMetadata(statusOnly.metadata().toBuilder().label("tier", "batch").build());
      s.updatePod(labelled);
      assertThat(s.pending()).singleElement()
          .satisfies(p -> assertThat(p.queue()).isEqualTo(PendingPod.Queue.UNSCHEDULABLE));
      assertThat(s.runUntilIdle()).isEmpty();

      Pod smaller = pod("big", 500, 100);
      s.updatePod(smaller.withMetadata(labelled.metadata()).withStatus(labelled.status()));
      assertThat(s.pending()).singleElement()
          .satisfies(p -> assertThat(p.queue()).isNotEqualTo(PendingPod.Queue.UNSCHEDULABLE));
      clock.advance(Duration.ofSeconds(2));
      assertThat(s.runUntilIdle()).singleElement()
          .satisfies(r -> assertThat(r.code()).isEqualTo(Status.Code.SUCCESS));
    }
  }
}
