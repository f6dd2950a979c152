package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.ExtensionPoint;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PermitPlugin;
import io.fleetkit.api.framework.PermitResult;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.ReservePlugin;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.framework.ScorePlugin;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.scheduling.PreemptionPolicy;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.plugins.defaultpreemption.DefaultPreemptionPlugin;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a failed attempt does to the pod's nomination, as kube-scheduler's {@code schedulingCycle} and
 * {@code handleSchedulingFailure} ({@code pkg/scheduler/schedule_one.go}): every failure answers
 * {@code clearNominatedNode} (the nominator forgets the pod and {@code status.nominatedNodeName} is cleared) except
 * a FitError handed to PostFilter, whose answer decides (a node nominated, cleared when no node can be made to fit,
 * kept when the pod may not preempt). The pod starts nominated to n1 by its own {@code status.nominatedNodeName}
 * (kube's ModeNoop), the embedded way: a store, {@link StoreBinder}.
 */
final class FailureNominationTest {
  private final ManualClock clock = ManualClock.atEpoch2026();

  /** Which PostFilter plugins of the default profile stay. */
  enum PostFilters { ALL, ALL_BUT_PREEMPTION, NONE }

  /** Where the injected plugin fails. */
  enum Point { NONE, PRE_FILTER_ERROR, FILTER_ERROR, FILTER_REJECTS, FILTER_UNRESOLVABLE, SCORE_ERROR, RESERVE_ERROR,
    PERMIT_REJECTS }

  /** A plugin at PreFilter, Filter, Score, Reserve and Permit that fails at one of them, for pod {@code p} only. */
  static final class Inject implements PreFilterPlugin, FilterPlugin, ScorePlugin, ReservePlugin, PermitPlugin {
    static final String NAME = "Inject";
    private final Supplier<Point> point;

    Inject(Supplier<Point> point) {
      this.point = point;
    }

    @Override
    public String name() {
      return NAME;
    }

    private boolean at(Point p, PodInfo pod) {
      return point.get() == p && pod.pod().metadata().name().equals("p");
    }

    @Override
    public PreFilterResult preFilter(CycleState state, PodInfo pod, Snapshot snapshot) {
      return at(Point.PRE_FILTER_ERROR, pod) ? PreFilterResult.of(Status.error("injected PreFilter error"))
          : PreFilterResult.success();
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      if (at(Point.FILTER_ERROR, pod)) {
        return Status.error("injected Filter error");
      }
      if (at(Point.FILTER_REJECTS, pod)) {
        return Status.unschedulable("injected rejection");
      }
      if (at(Point.FILTER_UNRESOLVABLE, pod)) {
        return Status.unresolvable("injected unresolvable");
      }
      return Status.success();
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
      if (at(Point.SCORE_ERROR, pod)) {
        throw new IllegalStateException("injected Score error");
      }
      return 0;
    }

    @Override
    public Status reserve(CycleState state, PodInfo pod, String nodeName) {
      return at(Point.RESERVE_ERROR, pod) ? Status.error("injected Reserve error") : Status.success();
    }

    @Override
    public void unreserve(CycleState state, PodInfo pod, String nodeName) {
    }

    @Override
    public PermitResult permit(CycleState state, PodInfo pod, String nodeName) {
      return at(Point.PERMIT_REJECTS, pod) ? PermitResult.reject(Status.unschedulable("injected Permit rejection"))
          : PermitResult.allow();
    }
  }

  /**
   * One failure path: the injected failure, whether the profile keeps its PostFilter plugins, whether there are nodes,
   * whether binding fails, the pod's preemption policy; the attempt's code and the nomination after it ({@code null}
   * when cleared).
   */
  record Case(String name, Point point, PostFilters postFilters, boolean nodes, boolean bindFails,
      PreemptionPolicy policy, Status.Code code, @Nullable String nominated) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> cases() {
    PreemptionPolicy lower = PreemptionPolicy.PreemptLowerPriority;
    return Stream.of(
        // kube: ErrNoNodesAvailable -> clearNominatedNode
        new Case("no nodes", Point.NONE, PostFilters.ALL, false, false, lower, Status.Code.UNSCHEDULABLE, null),
        // kube: an error that is not a FitError -> clearNominatedNode
        new Case("PreFilter error", Point.PRE_FILTER_ERROR, PostFilters.ALL, true, false, lower, Status.Code.ERROR,
            null),
        new Case("Filter error", Point.FILTER_ERROR, PostFilters.ALL, true, false, lower, Status.Code.ERROR, null),
        new Case("Score error", Point.SCORE_ERROR, PostFilters.ALL, true, false, lower, Status.Code.ERROR, null),
        // kube: assume/Reserve/Permit failures and binding-cycle errors -> clearNominatedNode
        new Case("Reserve error", Point.RESERVE_ERROR, PostFilters.ALL, true, false, lower, Status.Code.ERROR, null),
        new Case("Permit rejection", Point.PERMIT_REJECTS, PostFilters.ALL, true, false, lower,
            Status.Code.UNSCHEDULABLE, null),
        new Case("binding error", Point.NONE, PostFilters.ALL, true, true, lower, Status.Code.ERROR, null),
        // kube: a FitError without PostFilter plugins -> clearNominatedNode
        new Case("unschedulable, no PostFilter", Point.FILTER_REJECTS, PostFilters.NONE, true, false, lower,
            Status.Code.UNSCHEDULABLE, null),
        // kube: PostFilter plugins that all answer Unschedulable without a result (DynamicResources with nothing to
        // deallocate, DefaultPreemption out of the profile) -> a nil NominatingInfo: the nomination stays
        new Case("unschedulable, PostFilter without a result", Point.FILTER_REJECTS, PostFilters.ALL_BUT_PREEMPTION,
            true, false, lower, Status.Code.UNSCHEDULABLE, "n1"),
        // kube: DefaultPreemption finds no candidate -> NewPostFilterResultWithNominatedNode("")
        new Case("unschedulable, preemption cannot help", Point.FILTER_UNRESOLVABLE, PostFilters.ALL, true, false,
            lower, Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, null),
        // kube: the pod may not preempt -> a nil PostFilterResult: the nomination stays
        new Case("unschedulable, preemptionPolicy Never", Point.FILTER_REJECTS, PostFilters.ALL, true, false,
            PreemptionPolicy.Never, Status.Code.UNSCHEDULABLE, "n1"))
        .map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void failedAttempt_clearsOrKeepsTheNomination_asKube(Case c) {
    PluginRegistry reg = PluginRegistry.defaults().with(Inject.NAME, h -> new Inject(c::point));
    SchedulerProfile.Builder profile = DefaultPlugins.profile().toBuilder().plugin(Inject.NAME);
    if (c.postFilters() == PostFilters.NONE) {
      profile.disableAt(ExtensionPoint.POST_FILTER, "*"); // DefaultPreemption and DynamicResources' PostFilter
    } else if (c.postFilters() == PostFilters.ALL_BUT_PREEMPTION) {
      profile.disable(DefaultPreemptionPlugin.NAME);
    }
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build()) {
      StoreBinder storeBinder = new StoreBinder(store, clock);
      SchedulerBuilder b = Scheduler.builder().clock(clock).registry(reg).profile(profile.build())
          .binder(c.bindFails() ? new StoreSchedulingFailureTest.FailingOnceBinder(storeBinder) : storeBinder)
          .evictor(storeBinder);
      try (Scheduler s = b.build(); StoreScheduler feed = s.attach(store)) {
        if (c.nodes()) {
          store.create(node("n1", 1000, 4096, 110));
          store.create(node("n2", 1000, 4096, 110));
        }
        Pod p = pod("p", 100, 10, 100).toBuilder().preemptionPolicy(c.policy()).build();
        store.create(p.withStatus(p.status().withNominatedNodeName("n1")));

        ScheduleResult r = s.scheduleOne();

        assertThat(r).isNotNull();
        assertThat(r.code()).isEqualTo(c.code());
        assertThat(r.nominatedNodeName()).isEqualTo(c.nominated());
        Pod stored = store.require(Pod.class, "default", "p");
        assertThat(stored.spec().nodeName()).isEmpty();
        assertThat(stored.status().nominatedNodeName()).isEqualTo(c.nominated() == null ? "" : c.nominated());
        PodCondition scheduled = stored.status().condition(PodCondition.POD_SCHEDULED);
        assertThat(scheduled).isNotNull();
        assertThat(scheduled.reason()).isEqualTo(c.code() == Status.Code.ERROR
            ? PodCondition.REASON_SCHEDULER_ERROR : PodCondition.REASON_UNSCHEDULABLE);
        assertThat(scheduled.message()).isEqualTo(r.message());
        assertThat(feed.scheduler()).isSameAs(s);
      }
    }
  }

  /**
   * The nominator forgets a pod whose attempt ended in an error: the room its nomination held on the node is free
   * for a lower-priority pod at once, which before the error is refused there (kube's {@code AddNominatedPod} with
   * {@code clearNominatedNode}).
   */
  @Test
  void errorAfterPreemption_freesTheNominatedRoom_andClearsTheStoredNomination() {
    boolean[] failFilter = {false};
    PluginRegistry reg = PluginRegistry.defaults().with("FailHigh", h -> new FilterPlugin() {
      @Override
      public String name() {
        return "FailHigh";
      }

      @Override
      public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        return failFilter[0] && pod.pod().metadata().name().equals("high") ? Status.error("injected Filter error")
            : Status.success();
      }
    });
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
        Scheduler s = Scheduler.builder().clock(clock).store(store).registry(reg)
            .profile(DefaultPlugins.profile().toBuilder().plugin("FailHigh").build()).build();
        StoreScheduler feed = s.attach(store)) {
      store.create(node("n1", 1000, 4096, 110));
      store.create(pod("low", 800, 100, 0).withNodeName("n1"));
      store.create(pod("high", 500, 100, 1000));

      ScheduleResult preempted = s.scheduleOne();
      assertThat(preempted).isNotNull();
      assertThat(preempted.nominatedNodeName()).isEqualTo("n1");
      assertThat(preempted.victims()).containsExactly("default/low");
      assertThat(store.require(Pod.class, "default", "high").status().nominatedNodeName()).isEqualTo("n1");
      PreemptionClearsNominationsTest.endVictims(store, preempted); // its kubelet ends the evicted pod

      // high's nomination holds 500m of n1 against lower-priority pods
      store.create(pod("probe", 800, 100, 0));
      ScheduleResult refused = s.scheduleOne();
      assertThat(refused).isNotNull();
      assertThat(refused.podKey()).isEqualTo("default/probe");
      assertThat(refused.code()).isEqualTo(Status.Code.UNSCHEDULABLE);

      failFilter[0] = true;
      clock.advance(Duration.ofSeconds(2)); // past high's backoff
      ScheduleResult error = s.scheduleOne();
      assertThat(error).isNotNull();
      assertThat(error.podKey()).isEqualTo("default/high");
      assertThat(error.code()).isEqualTo(Status.Code.ERROR);
      assertThat(error.nominatedNodeName()).isNull();
      Pod high = store.require(Pod.class, "default", "high");
      assertThat(high.status().nominatedNodeName()).isEmpty();
      assertThat(high.status().condition(PodCondition.POD_SCHEDULED).reason())
          .isEqualTo(PodCondition.REASON_SCHEDULER_ERROR);

      // a new lower-priority pod now fits where high's nomination held the room
      store.create(pod("after", 800, 100, 0));
      ScheduleResult placed = s.scheduleOne();
      assertThat(placed).isNotNull();
      assertThat(placed.podKey()).isEqualTo("default/after");
      assertThat(placed.nodeName()).isEqualTo("n1");
      assertThat(feed.scheduler()).isSameAs(s);
    }
  }
}
