package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.store.ForwardingObjectStore;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The order of a failed attempt's write ({@link StoreBinder#schedulingFailed}) and a later binding of the same pod:
 * a binding is never overwritten by an earlier failure's write. The store protocol guarantees it whichever write
 * lands first (both are compare-and-swap on the resourceVersion they read, and a failure leaves a bound pod alone);
 * the engine guarantees it by writing the failure before the pod can be attempted again (docs/architecture.md).
 */
final class FailureWriteOrderingTest {
  private final ManualClock clock = ManualClock.atEpoch2026();

  private static PodCondition unschedulable(String message) {
    return PodCondition.of(PodCondition.POD_SCHEDULED, ConditionStatus.False, PodCondition.REASON_UNSCHEDULABLE,
        message, null);
  }

  /** A store that runs {@code meanwhile} once, right after the first read of pod {@code p}, before answering it. */
  private static ObjectStore racing(ObjectStore inner, Runnable meanwhile) {
    AtomicBoolean ran = new AtomicBoolean();
    return new ForwardingObjectStore(inner) {
      @Override
      public <T extends ApiObject<T>> Optional<T> get(Class<T> kind, String namespace, String name) {
        Optional<T> read = super.get(kind, namespace, name);
        if (kind == Pod.class && name.equals("p") && ran.compareAndSet(false, true)) {
          meanwhile.run();
        }
        return read;
      }
    };
  }

  @Test
  void failureWrite_overtakenByABindingAfterItsRead_leavesTheBoundPodAlone() {
    try (ObjectStore inner = ObjectStore.builder().clock(clock).directDelivery().build()) {
      Pod pending = inner.create(pod("p", 100, 10));
      StoreBinder binder = new StoreBinder(inner, clock);
      ObjectStore slowFailure = racing(inner, () -> assertThat(binder.bind(pending, "n1").isSuccess()).isTrue());

      new StoreBinder(slowFailure, clock).schedulingFailed(pending, unschedulable("0/1 nodes are available"), "n2");

      Pod after = inner.require(Pod.class, "default", "p");
      assertThat(after.spec().nodeName()).isEqualTo("n1");
      assertThat(after.status().condition(PodCondition.POD_SCHEDULED).status()).isEqualTo(ConditionStatus.True);
      assertThat(after.status().nominatedNodeName()).isEmpty();
    }
  }

  @Test
  void binding_overtakenByAFailureWriteAfterItsRead_stillBindsAndWinsTheCondition() {
    try (ObjectStore inner = ObjectStore.builder().clock(clock).directDelivery().build()) {
      Pod pending = inner.create(pod("p", 100, 10));
      StoreBinder failures = new StoreBinder(inner, clock);
      ObjectStore slowBind = racing(inner,
          () -> failures.schedulingFailed(pending, unschedulable("0/1 nodes are available"), "n1"));

      assertThat(new StoreBinder(slowBind, clock).bind(pending, "n1").isSuccess()).isTrue();

      Pod after = inner.require(Pod.class, "default", "p");
      assertThat(after.spec().nodeName()).isEqualTo("n1");
      assertThat(after.status().condition(PodCondition.POD_SCHEDULED).status()).isEqualTo(ConditionStatus.True);
      assertThat(after.status().nominatedNodeName()).isEmpty();
    }
  }

  /**
   * End to end with a store whose status writes are slow and bindings on binding threads: each failure of the pod is
   * written before its next attempt, so the binding is the last write and the pod ends bound, PodScheduled=True.
   */
  @Test
  void slowStatusWrites_asyncBinding_theBindingIsThePodsLastWrite() {
    List<String> writes = Collections.synchronizedList(new ArrayList<>());
    try (ObjectStore inner = ObjectStore.builder().clock(clock).directDelivery().build()) {
      ObjectStore slow = new ForwardingObjectStore(inner) {
        @Override
        public <T extends ApiObject<T>> T updateStatus(T object) {
          if (object instanceof Pod p && p.metadata().name().equals("p")) {
            sleep();
            writes.add("failure " + p.status().condition(PodCondition.POD_SCHEDULED).message());
          }
          return super.updateStatus(object);
        }

        @Override
        public <T extends ApiObject<T>> T updateWithStatus(T object) {
          if (object instanceof Pod p && p.metadata().name().equals("p")) {
            writes.add("bind " + p.spec().nodeName());
          }
          return super.updateWithStatus(object);
        }
      };
      try (Scheduler s = Scheduler.builder().clock(clock).store(slow).bindParallelism(2).build();
          StoreScheduler feed = s.attach(slow)) {
        slow.create(node("n1", 1000, 4096, 110));
        slow.create(pod("p", 2000, 10));
        s.runUntilIdle();
        clock.advance(Duration.ofSeconds(30));
        // room, but unschedulable: re-queues p, which fails again with another diagnosis
        slow.create(node("n2", 4000, 4096, 110).toBuilder().unschedulable(true).build());
        s.runUntilIdle();
        clock.advance(Duration.ofSeconds(30));
        slow.create(node("n3", 4000, 4096, 110));
        s.runUntilIdle();
        assertThat(feed.scheduler()).isSameAs(s);
      }
      assertThat(writes).containsExactly(
          "failure 0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: "
              + "1 Preemption is not helpful for scheduling.",
          "failure 0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable. preemption: 0/2 nodes "
              + "are available: 2 Preemption is not helpful for scheduling.",
          "bind n3");
      Pod after = inner.require(Pod.class, "default", "p");
      assertThat(after.spec().nodeName()).isEqualTo("n3");
      assertThat(after.status().condition(PodCondition.POD_SCHEDULED).status()).isEqualTo(ConditionStatus.True);
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
