package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.framework.Binder;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.store.ForwardingObjectStore;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.plugins.gpu.GpuPlugins;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link StoreBinder#schedulingFailed}: kube-scheduler's {@code updatePod}. The table is upstream's
 * {@code TestUpdatePodStatus} ({@code pkg/scheduler/schedule_one_test.go}, kubernetes/kubernetes commit
 * 008b3652959ca58af8be3fb5b6ecfe9ae7638282), all 8 cases, run against an in-memory store: upstream's "patch request
 * made" is "the pod's resourceVersion changed", and its expected patch body is checked on the stored status (the
 * condition written, the condition of another type kept, {@code lastTransitionTime} kept or set to the binder's clock,
 * {@code nominatedNodeName} set or left). Upstream's free-form condition statuses map to FleetKit's closed
 * {@link ConditionStatus}: {@code currentStatus}/{@code someOtherTypeStatus} → False, {@code newStatus} → True; a nil
 * {@code NominatingInfo} is a null nomination. Upstream runs each case with and without async API calls; FleetKit has
 * one path. The remaining tests are FleetKit's: the pod gone, bound or recreated, and write conflicts.
 */
final class StoreBinderSchedulingFailedTest {
  private static final Instant NOW = ManualClock.atEpoch2026().instant();

  /** One row of upstream's table; {@code wantTransition} is the stored condition's lastTransitionTime after it. */
  record Case(String name, List<PodCondition> current, PodCondition condition, String currentNominated,
      @Nullable String nominating, boolean wantWrite, @Nullable Instant wantTransition) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Instant t(int month, int day, int h, int m, int s, int nanos) {
    return Instant.parse(String.format("2020-%02d-%02dT%02d:%02d:%02dZ", month, day, h, m, s)).plusNanos(nanos);
  }

  private static PodCondition cond(String type, ConditionStatus status, Instant probe, Instant transition,
      String reason, String message) {
    return new PodCondition(type, status, reason, message, probe, transition);
  }

  static Stream<Case> upstreamTestUpdatePodStatus() {
    PodCondition newCond = cond("newType", ConditionStatus.True, t(5, 13, 1, 1, 1, 1), t(5, 12, 1, 1, 1, 1),
        "newReason", "newMessage");
    PodCondition currentCond = cond("currentType", ConditionStatus.False, t(5, 13, 0, 0, 0, 0), t(5, 12, 0, 0, 0, 0),
        "currentReason", "currentMessage");
    return Stream.of(
        new Case("Should make patch request to add pod condition when there are none currently", List.of(), newCond,
            "", null, true, NOW),
        new Case("Should make patch request to add a new pod condition when there is already one with another type",
            List.of(cond("someOtherType", ConditionStatus.False, t(5, 11, 0, 0, 0, 0), t(5, 10, 0, 0, 0, 0),
                "someOtherTypeReason", "someOtherTypeMessage")),
            newCond, "", null, true, NOW),
        new Case("Should make patch request to update an existing pod condition", List.of(currentCond),
            cond("currentType", ConditionStatus.True, t(5, 13, 1, 1, 1, 1), t(5, 12, 1, 1, 1, 1), "newReason",
                "newMessage"),
            "", null, true, NOW),
        new Case("Should make patch request to update an existing pod condition, but the transition time should "
            + "remain unchanged because the status is the same", List.of(currentCond),
            cond("currentType", ConditionStatus.False, t(5, 13, 1, 1, 1, 1), t(5, 12, 0, 0, 0, 0), "newReason",
                "newMessage"),
            "", null, true, t(5, 12, 0, 0, 0, 0)),
        new Case("Should not make patch request if pod condition already exists and is identical and nominated node "
            + "name is not set", List.of(currentCond), currentCond, "node1", null, false, t(5, 12, 0, 0, 0, 0)),
        new Case("Should make patch request if pod condition already exists and is identical but nominated node name "
            + "is set and different", List.of(currentCond), currentCond, "", "node1", true, t(5, 12, 0, 0, 0, 0)),
        new Case("Should not update nominated node name when nominatingInfo is nil", List.of(currentCond),
            cond("currentType", ConditionStatus.True, t(5, 13, 1, 1, 1, 1), t(5, 12, 1, 1, 1, 1), "newReason",
                "newMessage"),
            "existing-node", null, true, NOW),
        new Case("Should not make patch request when nominatingInfo is nil and pod condition is unchanged",
            List.of(currentCond), currentCond, "existing-node", null, false, t(5, 12, 0, 0, 0, 0)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("upstreamTestUpdatePodStatus")
  void schedulingFailed_upstreamTable(Case c) {
    ManualClock clock = new ManualClock(NOW);
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      Pod foo = pod("foo", 100, 10);
      foo = foo.withStatus(foo.status().withNominatedNodeName(c.currentNominated()));
      for (PodCondition pc : c.current()) {
        foo = foo.withStatus(foo.status().withCondition(pc));
      }
      Pod before = store.create(foo);

      new StoreBinder(store, clock).schedulingFailed(before, c.condition(), c.nominating());

      Pod after = store.require(Pod.class, "default", "foo");
      assertThat(after.metadata().resourceVersion().equals(before.metadata().resourceVersion()))
          .as("no write").isEqualTo(!c.wantWrite());
      if (!c.wantWrite()) {
        assertThat(after).isEqualTo(before);
        return;
      }
      // the conditions of other types are kept, in their order; the new type comes last
      List<String> wantTypes = new java.util.ArrayList<>(c.current().stream().map(PodCondition::type).toList());
      if (!wantTypes.contains(c.condition().type())) {
        wantTypes.add(c.condition().type());
      }
      assertThat(after.status().conditions()).extracting(PodCondition::type).containsExactlyElementsOf(wantTypes);
      for (PodCondition other : c.current()) {
        if (!other.type().equals(c.condition().type())) {
          assertThat(after.status().condition(other.type())).isEqualTo(other);
        }
      }
      PodCondition written = after.status().condition(c.condition().type());
      assertThat(written).isNotNull();
      assertThat(written.status()).isEqualTo(c.condition().status());
      assertThat(written.reason()).isEqualTo(c.condition().reason());
      assertThat(written.message()).isEqualTo(c.condition().message());
      assertThat(written.lastProbeTime()).isEqualTo(c.condition().lastProbeTime());
      assertThat(written.lastTransitionTime()).isEqualTo(c.wantTransition());
      assertThat(after.status().nominatedNodeName())
          .isEqualTo(c.nominating() != null ? c.nominating() : c.currentNominated());
      assertThat(after.spec()).isEqualTo(before.spec());
    }
  }

  private static PodCondition unschedulable(String message) {
    return PodCondition.of(PodCondition.POD_SCHEDULED, ConditionStatus.False, PodCondition.REASON_UNSCHEDULABLE,
        message, null);
  }

  @Test
  void gpuBinder_handsTheFailureToTheBinderItWraps() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      Pod p = store.create(pod("p", 1, 1));
      Binder gpu = GpuPlugins.create(false).binder(new StoreBinder(store));
      gpu.schedulingFailed(p, unschedulable("0/1 nodes are available"), "n1");
      Pod after = store.require(Pod.class, "default", "p");
      assertThat(after.status().condition(PodCondition.POD_SCHEDULED).message()).isEqualTo("0/1 nodes are available");
      assertThat(after.status().nominatedNodeName()).isEqualTo("n1");
    }
  }

  @Test
  void schedulingFailed_podGone_writesNothingAndDoesNotThrow() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      assertThatCode(() -> new StoreBinder(store).schedulingFailed(pod("ghost", 1, 1), unschedulable("x"), "n1"))
          .doesNotThrowAnyException();
      assertThat(store.get(Pod.class, "default", "ghost")).isEmpty();
    }
  }

  @Test
  void schedulingFailed_podBoundMeanwhile_isLeftAlone() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      Pod pending = store.create(pod("p", 1, 1));
      StoreBinder binder = new StoreBinder(store);
      assertThat(binder.bind(pending, "n2").isSuccess()).isTrue();
      Pod bound = store.require(Pod.class, "default", "p");
      binder.schedulingFailed(pending, unschedulable("0/1 nodes are available"), "n1");
      assertThat(store.require(Pod.class, "default", "p")).isEqualTo(bound);
    }
  }

  @Test
  void schedulingFailed_podRecreatedUnderTheSameName_isLeftAlone() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      Pod old = store.create(pod("p", 1, 1));
      store.delete(Pod.class, "default", "p");
      Pod recreated = store.create(pod("p", 1, 1));
      new StoreBinder(store).schedulingFailed(old, unschedulable("0/1 nodes are available"), "n1");
      assertThat(store.require(Pod.class, "default", "p")).isEqualTo(recreated);
    }
  }

  @Test
  void schedulingFailed_writeConflict_rereadsAndWritesOverTheConcurrentChange() {
    try (ObjectStore inner = ObjectStore.builder().directDelivery().build()) {
      AtomicInteger statusWrites = new AtomicInteger();
      ObjectStore racing = new ForwardingObjectStore(inner) {
        @Override
        public <T extends ApiObject<T>> T updateStatus(T object) {
          if (statusWrites.getAndIncrement() == 0 && object instanceof Pod p) {
            // another writer (a kubelet, say) changes the pod between the binder's read and its write
            Pod current = inner.require(Pod.class, "default", p.metadata().name());
            inner.updateStatus(current.withStatus(current.status().withReason("Other", "someone else's write")));
          }
          return super.updateStatus(object);
        }
      };
      Pod before = inner.create(pod("p", 1, 1));
      new StoreBinder(racing).schedulingFailed(before, unschedulable("0/1 nodes are available"), "n1");
      Pod after = inner.require(Pod.class, "default", "p");
      assertThat(statusWrites).hasValue(2);
      assertThat(after.status().reason()).as("the concurrent write is kept").isEqualTo("Other");
      assertThat(after.status().condition(PodCondition.POD_SCHEDULED).message())
          .isEqualTo("0/1 nodes are available");
      assertThat(after.status().nominatedNodeName()).isEqualTo("n1");
    }
  }

  @Test
  void schedulingFailed_conflictsEveryTime_givesUpAfterFiveAttemptsWithoutThrowing() {
    try (ObjectStore inner = ObjectStore.builder().directDelivery().build()) {
      AtomicInteger statusWrites = new AtomicInteger();
      ObjectStore conflicting = new ForwardingObjectStore(inner) {
        @Override
        public <T extends ApiObject<T>> T updateStatus(T object) {
          statusWrites.incrementAndGet();
          throw new ConflictException("the object has been modified");
        }
      };
      Pod before = inner.create(pod("p", 1, 1));
      assertThatCode(() -> new StoreBinder(conflicting).schedulingFailed(before, unschedulable("m"), ""))
          .doesNotThrowAnyException();
      assertThat(statusWrites).hasValue(5);
      assertThat(inner.require(Pod.class, "default", "p")).isEqualTo(before);
    }
  }
}
