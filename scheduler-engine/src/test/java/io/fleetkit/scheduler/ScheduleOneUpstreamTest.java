package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.EnqueueExtensions;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PermitPlugin;
import io.fleetkit.api.framework.PermitResult;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreBindPlugin;
import io.fleetkit.api.framework.ReservePlugin;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's {@code TestSchedulerScheduleOne} ({@code pkg/scheduler/schedule_one_test.go}, kubernetes/kubernetes
 * commit 008b3652959ca58af8be3fb5b6ecfe9ae7638282): one pod, one node, a fake plugin failing at one extension point
 * (or a binding error), one scheduling attempt through the embedded path (a store, {@link StoreBinder}). Upstream's
 * checks map to: {@code expectError} the attempt's code and message; {@code expectAssumedPod}/{@code expectForgetPod}
 * the pod assumed on the node and forgotten (not on the node afterwards); {@code expectPodInBackoffQ} /
 * {@code expectPodInUnschedulable} the pod's queue; {@code expectBind} the stored binding; {@code eventReason} the
 * event recorded; {@code expectNominatedNodeName} the stored {@code status.nominatedNodeName}. Upstream's mocked
 * {@code SchedulePod} error is a Filter error here (FleetKit's cycle is not mocked); its fake plugins' errors keep
 * their own message (upstream wraps them as {@code running Reserve plugin "FakeReserve": ...}). Upstream's
 * "deleting pod" sends a pod with a deletionTimestamp: here a pod kept by a finalizer and deleted, so that the store
 * marks it; the attempt is skipped (code SKIP, upstream calls no failure handler), nothing is assumed, bound or
 * written, the pod leaves the queue (upstream's empty in-flight, backoff and unschedulable pods) and the one event is
 * FailedScheduling. Not ported (6 of 17): the NominatedNodeNameForExpectation gate and PreBindPreFlight ("nominated
 * node name is set, permit plugin is working in wait on permit phase", the four prebindpreflight cases, "prebind is
 * called and nominated node name is set, if preflight returns success") and cancelling a pod in PreBind ("prebind pod
 * cancelled during prebind (external preemption)"). Upstream also runs each case as a pod group and with async API
 * calls; FleetKit has one path.
 */
final class ScheduleOneUpstreamTest {
  private static final String FAKE = "Fake";

  enum Fail { NONE, SCHEDULING_ERROR, RESERVE_ERROR, RESERVE_REJECTED, PERMIT_ERROR, PERMIT_REJECTED, PERMIT_WAIT,
    PRE_BIND_ERROR }

  /**
   * Upstream's fake Reserve, Permit and PreBind plugins in one, plus its mocked scheduling error as a Filter error.
   * It registers node additions only: the failure's own {@code PodScheduled=False} write comes back from the store as
   * an update of the parked pod (upstream's table has no informer loop), which a plugin registering every event would
   * answer with a retry (kube's queue does the same for a plugin without {@code EnqueueExtensions}).
   */
  static final class Fake implements FilterPlugin, ReservePlugin, PermitPlugin, PreBindPlugin, EnqueueExtensions {
    private final Fail fail;

    Fake(Fail fail) {
      this.fail = fail;
    }

    @Override
    public Set<ClusterEvent> eventsToRegister() {
      return Set.of(ClusterEvent.NODE_ADD);
    }

    @Override
    public String name() {
      return FAKE;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      return fail == Fail.SCHEDULING_ERROR ? Status.error("scheduler") : Status.success();
    }

    @Override
    public Status reserve(CycleState state, PodInfo pod, String nodeName) {
      return switch (fail) {
        case RESERVE_ERROR -> Status.error("reserve error");
        case RESERVE_REJECTED -> Status.unresolvable("rejected on reserve");
        default -> Status.success();
      };
    }

    @Override
    public void unreserve(CycleState state, PodInfo pod, String nodeName) {
    }

    @Override
    public PermitResult permit(CycleState state, PodInfo pod, String nodeName) {
      return switch (fail) {
        case PERMIT_ERROR -> PermitResult.reject(Status.error("permit error"));
        case PERMIT_REJECTED -> PermitResult.reject(Status.unschedulable("rejected on permit"));
        case PERMIT_WAIT -> PermitResult.waitFor(Duration.ofMinutes(1));
        default -> PermitResult.allow();
      };
    }

    @Override
    public Status preBind(CycleState state, PodInfo pod, String nodeName) {
      return fail == Fail.PRE_BIND_ERROR ? Status.error("on PreBind") : Status.success();
    }
  }

  /** A binder whose bindings fail, recording failures through the store binder it wraps. */
  record FailingBinder(StoreBinder delegate) implements io.fleetkit.api.framework.Binder {
    @Override
    public Status bind(Pod pod, String nodeName) {
      return Status.error("binder");
    }

    @Override
    public void schedulingFailed(Pod pod, PodCondition condition, @Nullable String nominatedNodeName) {
      delegate.schedulingFailed(pod, condition, nominatedNodeName);
    }
  }

  /**
   * One row: what fails, the pod's nomination before; the code and message of the attempt ({@code null} code: bound),
   * the queue it ends in, the event, the stored nomination after.
   */
  record Case(String name, Fail fail, boolean bindFails, String nominatedBefore, Status.@Nullable Code code,
      String message, PendingPod.@Nullable Queue queue, String event, String nominatedAfter, boolean deleting) {
    Case(String name, Fail fail, boolean bindFails, String nominatedBefore, Status.@Nullable Code code,
        String message, PendingPod.@Nullable Queue queue, String event, String nominatedAfter) {
      this(name, fail, bindFails, nominatedBefore, code, message, queue, event, nominatedAfter, false);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> upstreamTestSchedulerScheduleOne() {
    Status.Code error = Status.Code.ERROR;
    PendingPod.Queue backoff = PendingPod.Queue.BACKOFF;
    String failed = EventRecorder.FAILED_SCHEDULING;
    return Stream.of(
        new Case("schedule pod failed", Fail.SCHEDULING_ERROR, false, "", error, "scheduler", backoff, failed, ""),
        new Case("reserve failed with status code error", Fail.RESERVE_ERROR, false, "", error, "reserve error",
            backoff, failed, ""),
        new Case("reserve failed with status code rejected", Fail.RESERVE_REJECTED, false, "",
            Status.Code.UNSCHEDULABLE, "0/1 nodes are available: 1 rejected on reserve.",
            PendingPod.Queue.UNSCHEDULABLE, failed, ""),
        new Case("permit failed with status code error", Fail.PERMIT_ERROR, false, "", error, "permit error", backoff,
            failed, ""),
        new Case("permit failed with status code rejected", Fail.PERMIT_REJECTED, false, "",
            Status.Code.UNSCHEDULABLE, "0/1 nodes are available: 1 rejected on permit.",
            PendingPod.Queue.UNSCHEDULABLE, failed, ""),
        new Case("nominated node name is not set, permit plugin is working, but the feature gate "
            + "NominatedNodeNameForExpectation is disabled", Fail.PERMIT_WAIT, false, "", null, "", null,
            EventRecorder.SCHEDULED, ""),
        new Case("prebind failed with status code error", Fail.PRE_BIND_ERROR, false, "", error, "on PreBind",
            backoff, failed, ""),
        new Case("binding failed", Fail.NONE, true, "", error, "binder", backoff, failed, ""),
        new Case("bind assumed pod scheduled", Fail.NONE, false, "", null, "", null, EventRecorder.SCHEDULED, ""),
        new Case("deleting pod", Fail.NONE, false, "", Status.Code.SKIP, "skip schedule deleting pod: default/foo",
            null, failed, "", true),
        new Case("pod with existing nominated node name on scheduling error clears nomination",
            Fail.SCHEDULING_ERROR, false, "existing-node", error, "scheduler", backoff, failed, ""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("upstreamTestSchedulerScheduleOne")
  void scheduleOne_upstreamTable(Case c) {
    ManualClock clock = ManualClock.atEpoch2026();
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    EventRecorder recorder = (regarding, related, type, reason, action, note) -> {
      if (regarding.name().equals("foo")) {
        events.add(reason);
      }
    };
    PluginRegistry reg = PluginRegistry.defaults().with(FAKE, h -> new Fake(c.fail()));
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build()) {
      StoreBinder storeBinder = new StoreBinder(store, clock);
      try (Scheduler s = Scheduler.builder().clock(clock).registry(reg).events(recorder)
          .profile(DefaultPlugins.profile().toBuilder().plugin(FAKE).build())
          .binder(c.bindFails() ? new FailingBinder(storeBinder) : storeBinder).evictor(storeBinder).build();
          StoreScheduler feed = s.attach(store)) {
        store.create(node("node1", 1000, 4096, 110));
        Pod foo = pod("foo", 100, 10);
        if (c.deleting()) {
          foo = foo.withMetadata(foo.metadata().toBuilder().finalizer("example.com/keep").build());
        }
        store.create(foo.withStatus(foo.status().withNominatedNodeName(c.nominatedBefore())));
        if (c.deleting()) {
          store.delete(Pod.class, "default", "foo"); // marked for deletion, kept by the finalizer
          assertThat(store.require(Pod.class, "default", "foo").metadata().deletionTimestamp()).isNotNull();
        }

        ScheduleResult r = s.scheduleOne();
        assertThat(r).isNotNull();
        if (c.fail() == Fail.PERMIT_WAIT) {
          assertThat(r.code()).isEqualTo(Status.Code.WAIT);
          assertThat(s.nodeOf("default/foo")).as("assumed while Permit waits").contains("node1");
          s.waitingPods().allow("default/foo", FAKE); // upstream's podToAdmit
          s.runUntilIdle();
        }
        Supplier<Pod> stored = () -> store.require(Pod.class, "default", "foo");
        if (c.deleting()) {
          assertThat(r.code()).as("skipped, no failure handler").isEqualTo(c.code());
          assertThat(r.message()).isEqualTo(c.message());
          assertThat(r.nodeName()).isNull();
          assertThat(stored.get().spec().nodeName()).as("no binding").isEmpty();
          assertThat(stored.get().status().condition(PodCondition.POD_SCHEDULED)).as("no status written").isNull();
          assertThat(s.nodeOf("default/foo")).as("never assumed").isEmpty();
          assertThat(s.pending()).as("not in flight, backoff or unschedulable").isEmpty();
          assertThat(s.scheduleOne()).as("nothing left to pop").isNull();
        } else if (c.code() == null) {
          assertThat(stored.get().spec().nodeName()).as("expectBind").isEqualTo("node1");
          assertThat(stored.get().status().condition(PodCondition.POD_SCHEDULED).status())
              .isEqualTo(ConditionStatus.True);
          assertThat(s.nodeOf("default/foo")).contains("node1");
          assertThat(s.pending()).isEmpty();
        } else {
          assertThat(r.code()).as("expectError").isEqualTo(c.code());
          assertThat(r.message()).isEqualTo(c.message());
          assertThat(stored.get().spec().nodeName()).as("no binding").isEmpty();
          assertThat(s.nodeOf("default/foo")).as("never assumed, or forgotten").isEmpty();
          assertThat(s.pending()).singleElement().satisfies(p -> assertThat(p.queue()).isEqualTo(c.queue()));
          assertThat(stored.get().status().condition(PodCondition.POD_SCHEDULED).message()).isEqualTo(c.message());
        }
        assertThat(events).as("eventReason").containsExactly(c.event());
        assertThat(stored.get().status().nominatedNodeName()).as("expectNominatedNodeName")
            .isEqualTo(c.nominatedAfter());
        assertThat(feed.scheduler()).isSameAs(s);
      }
    }
  }
}
