package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.scheduling.PreemptionPolicy;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.FailureNominationTest.Inject;
import io.fleetkit.scheduler.FailureNominationTest.Point;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Over any sequence of failed attempts, some after another component nominated the pod in the store (kube's ModeNoop
 * source), the stored {@code status.nominatedNodeName} is what the attempt reported: set when kept, {@code ""} when
 * the attempt dropped it; it is dropped by every failure kube answers with {@code clearNominatedNode} and by
 * DefaultPreemption finding no node where preemption helps, and kept only when PostFilter gave no result (the pod's
 * {@code preemptionPolicy: Never}).
 */
final class NominationFollowsEnginePropertiesTest {
  /** The failures PostFilter sees (a FitError); the others reach kube's clearNominatedNode without it. */
  private static final Set<Point> FIT_ERRORS = EnumSet.of(Point.FILTER_REJECTS, Point.FILTER_UNRESOLVABLE);

  /** One attempt: whether the stored pod is nominated to n1 by someone else first, and where the attempt fails. */
  record Step(boolean nominateFirst, Point point) {}

  @Provide
  Arbitrary<List<Step>> steps() {
    Arbitrary<Point> points = Arbitraries.of(Point.PRE_FILTER_ERROR, Point.FILTER_ERROR, Point.FILTER_REJECTS,
        Point.FILTER_UNRESOLVABLE, Point.SCORE_ERROR, Point.RESERVE_ERROR, Point.PERMIT_REJECTS);
    return Combinators.combine(Arbitraries.of(true, false), points).as(Step::new).list().ofMinSize(1).ofMaxSize(8);
  }

  @Property(tries = 40)
  void storedNomination_isTheReportedOne_afterEveryFailedAttempt(@ForAll("steps") List<Step> steps,
      @ForAll boolean mayPreempt) {
    ManualClock clock = ManualClock.atEpoch2026();
    AtomicReference<Point> point = new AtomicReference<>(Point.NONE);
    PluginRegistry reg = PluginRegistry.defaults().with(Inject.NAME, h -> new Inject(point::get));
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
        Scheduler s = Scheduler.builder().clock(clock).store(store).registry(reg)
            .profile(DefaultPlugins.profile().toBuilder().plugin(Inject.NAME).build()).build();
        StoreScheduler feed = s.attach(store)) {
      store.create(node("n1", 1000, 4096, 110));
      store.create(node("n2", 1000, 4096, 110));
      store.create(pod("p", 100, 10, 100).toBuilder()
          .preemptionPolicy(mayPreempt ? PreemptionPolicy.PreemptLowerPriority : PreemptionPolicy.Never).build());
      for (Step step : steps) {
        if (step.nominateFirst()) {
          Pod current = store.require(Pod.class, "default", "p");
          store.updateStatus(current.withStatus(current.status().withNominatedNodeName("n1")));
        }
        String before = store.require(Pod.class, "default", "p").status().nominatedNodeName();
        point.set(step.point());
        clock.advance(Duration.ofMinutes(6)); // past backoff and the unschedulable pods' flush
        ScheduleResult r = s.scheduleOne();

        assertThat(r).isNotNull();
        assertThat(r.code()).isNotIn(Status.Code.SUCCESS, Status.Code.WAIT);
        String stored = store.require(Pod.class, "default", "p").status().nominatedNodeName();
        assertThat(stored).isEqualTo(r.nominatedNodeName() == null ? "" : r.nominatedNodeName());
        // DefaultPreemption: a pod that may not preempt gets no result (kept); one that may finds no node where
        // preemption helps, as the injected rejection stays, and answers an empty nomination (dropped)
        boolean kept = FIT_ERRORS.contains(step.point()) && !mayPreempt;
        assertThat(stored).as(step + " after " + before).isEqualTo(kept ? before : "");
      }
      assertThat(feed.scheduler()).isSameAs(s);
    }
  }
}
