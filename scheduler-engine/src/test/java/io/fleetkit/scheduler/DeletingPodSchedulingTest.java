package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.framework.Binder;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.PermitPlugin;
import io.fleetkit.api.framework.PermitResult;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Pods being deleted (a {@code deletionTimestamp}, kept by a finalizer) in the engine, as kube-scheduler: a pending one
 * is skipped when popped and leaves the queue ({@code skipPodSchedule}); an assumed one whose update marks it is
 * released at once ({@code updatePodInSchedulingQueue} with {@code handleAssumedPodDeletion}): rejected if it waits on
 * Permit, forgotten if its binding runs, which the store then refuses; either way it is never bound, and the room it
 * held goes to the pods it kept out.
 */
final class DeletingPodSchedulingTest {
  private static final String GATE = "Gate";
  private final ManualClock clock = ManualClock.atEpoch2026();

  /** A Permit plugin that holds pod {@code foo} for a minute and lets every other pod through. */
  static final class Gate implements PermitPlugin {
    @Override
    public String name() {
      return GATE;
    }

    @Override
    public PermitResult permit(CycleState state, PodInfo pod, String nodeName) {
      return pod.pod().metadata().name().equals("foo") ? PermitResult.waitFor(Duration.ofMinutes(1))
          : PermitResult.allow();
    }
  }

  private static Pod kept(Pod pod) {
    return pod.withMetadata(pod.metadata().toBuilder().finalizer("example.com/keep").build());
  }

  private static ScheduleResult resultOf(List<ScheduleResult> results, String podKey) {
    return results.stream().filter(r -> r.podKey().equals(podKey)).reduce((a, b) -> b).orElseThrow();
  }

  @Test
  void parkedPod_markedForDeletion_skippedWhenPopped_leavesTheQueue() {
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
        Scheduler s = Scheduler.builder().clock(clock).store(store).build();
        StoreScheduler feed = s.attach(store)) {
      assertThat(feed).isNotNull();
      store.create(node("node1", 1000, 4096, 110));
      store.create(kept(pod("foo", 2000, 10)));
      assertThat(s.runUntilIdle()).singleElement() // more cpu than the node has
          .satisfies(r -> assertThat(r.code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE));
      assertThat(s.pending()).singleElement()
          .satisfies(p -> assertThat(p.queue()).isEqualTo(PendingPod.Queue.UNSCHEDULABLE));

      store.delete(Pod.class, "default", "foo"); // marked, kept by the finalizer: an update of the pod
      clock.advance(Duration.ofSeconds(11)); // past its backoff
      assertThat(s.runUntilIdle()).as("the mark is no event NodeResourcesFit registered: still parked").isEmpty();
      clock.advance(Duration.ofMinutes(5)); // the flush of pods parked too long (kube's podMaxInUnschedulablePods)
      List<ScheduleResult> results = s.runUntilIdle();

      assertThat(results).singleElement().satisfies(r -> {
        assertThat(r.code()).isEqualTo(Status.Code.SKIP);
        assertThat(r.message()).isEqualTo("skip schedule deleting pod: default/foo");
      });
      assertThat(s.pending()).as("dropped from the queue").isEmpty();
      assertThat(store.require(Pod.class, "default", "foo").spec().nodeName()).isEmpty();
    }
  }

  @Test
  void podWaitingOnPermit_markedForDeletion_rejectedItsRoomFreed_neverBound() {
    PluginRegistry reg = PluginRegistry.defaults().with(GATE, h -> new Gate());
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
        Scheduler s = Scheduler.builder().clock(clock).store(store).registry(reg)
            .profile(DefaultPlugins.profile().toBuilder().plugin(GATE).build()).build();
        StoreScheduler feed = s.attach(store)) {
      assertThat(feed).isNotNull();
      store.create(node("node1", 1000, 4096, 110));
      store.create(kept(pod("foo", 600, 10)));
      assertThat(s.scheduleOne()).satisfies(r -> assertThat(r.code()).isEqualTo(Status.Code.WAIT));
      store.create(pod("bar", 600, 10));
      assertThat(s.scheduleOne()).satisfies(r -> {
        assertThat(r.podKey()).isEqualTo("default/bar");
        assertThat(r.code()).isEqualTo(Status.Code.UNSCHEDULABLE); // foo holds the room while it waits
      });
      assertThat(s.waitingPods().keys()).containsExactly("default/foo");

      store.delete(Pod.class, "default", "foo");

      assertThat(s.waitingPods().keys()).as("rejected: removed").isEmpty();
      assertThat(s.nodeOf("default/foo")).as("forgotten").isEmpty();
      clock.advance(Duration.ofSeconds(11)); // past both pods' backoff, far from the 5-minute flush
      List<ScheduleResult> results = s.runUntilIdle();
      assertThat(resultOf(results, "default/bar").nodeName()).as("the freed room").isEqualTo("node1");
      assertThat(resultOf(results, "default/foo").code()).isEqualTo(Status.Code.SKIP);
      assertThat(s.pending()).isEmpty();
      assertThat(store.require(Pod.class, "default", "foo").spec().nodeName()).isEmpty();
      assertThat(store.require(Pod.class, "default", "bar").spec().nodeName()).isEqualTo("node1");
    }
  }

  /** Binds through the store once the test opens the gate. */
  static final class GatedBinder implements Binder {
    final StoreBinder store;
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch gate = new CountDownLatch(1);

    GatedBinder(StoreBinder store) {
      this.store = store;
    }

    @Override
    public Status bind(Pod pod, String nodeName) {
      entered.countDown();
      try {
        if (!gate.await(10, TimeUnit.SECONDS)) {
          return Status.error("gate never opened");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Status.error("interrupted");
      }
      return store.bind(pod, nodeName);
    }

    @Override
    public void schedulingFailed(Pod pod, PodCondition condition, @Nullable String nominatedNodeName) {
      store.schedulingFailed(pod, condition, nominatedNodeName);
    }
  }

  @Test
  void podBinding_markedForDeletion_forgottenAtOnce_storeRefusesTheBinding_thenSkipped() throws Exception {
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build()) {
      StoreBinder storeBinder = new StoreBinder(store, clock);
      GatedBinder binder = new GatedBinder(storeBinder);
      List<ScheduleResult> heard = new CopyOnWriteArrayList<>(); // a binding's outcome may be applied on its thread
      try (Scheduler s = Scheduler.builder().clock(clock).binder(binder).evictor(storeBinder).bindParallelism(1)
          .onResult(heard::add).build();
          StoreScheduler feed = s.attach(store)) {
        assertThat(feed).isNotNull();
        store.create(node("node1", 1000, 4096, 110));
        store.create(kept(pod("foo", 600, 10)));
        assertThat(s.scheduleOne()).satisfies(r -> assertThat(r.code()).isEqualTo(Status.Code.WAIT));
        assertThat(binder.entered.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(s.nodeOf("default/foo")).as("assumed while it binds").contains("node1");

        store.delete(Pod.class, "default", "foo");

        assertThat(s.nodeOf("default/foo")).as("forgotten before its binding ends").isEmpty();
        assertThat(s.nodeInfo("node1").orElseThrow().requested().milliCpu()).isZero();
        binder.gate.countDown();
        s.runUntilIdle(); // waits for the binding under way
        assertThat(resultOf(heard, "default/foo")).satisfies(r -> {
          assertThat(r.code()).isEqualTo(Status.Code.ERROR);
          assertThat(r.message()).contains("is being deleted, cannot be assigned to a host");
        });
        clock.advance(Duration.ofSeconds(11));
        assertThat(s.runUntilIdle()).singleElement()
            .satisfies(r -> assertThat(r.code()).isEqualTo(Status.Code.SKIP));
        assertThat(s.pending()).isEmpty();
        assertThat(store.require(Pod.class, "default", "foo").spec().nodeName()).isEmpty();
      }
    }
  }
}
