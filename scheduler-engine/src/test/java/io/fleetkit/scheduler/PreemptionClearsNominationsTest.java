package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * kube's {@code prepareCandidate} ({@code pkg/scheduler/framework/preemption}): when preemption nominates a pod to a
 * node, the pods of lower priority nominated to that node lose their nomination at once, in the API too
 * ({@code util.ClearNominatedNodeName}): here through {@link Evictor#clearNominatedNodeName}, which
 * {@link StoreBinder} implements as a status write. Pods of equal or higher priority keep theirs.
 */
final class PreemptionClearsNominationsTest {
  private final ManualClock clock = ManualClock.atEpoch2026();

  /** An evictor that records what it is asked to do. */
  static final class Recording implements Evictor {
    final List<String> evicted = new ArrayList<>();
    final List<String> cleared = new ArrayList<>();

    @Override
    public synchronized void evict(Pod victim) {
      evicted.add(victim.metadata().key());
    }

    @Override
    public synchronized void clearNominatedNodeName(Pod pod, Pod preemptor, String nodeName) {
      cleared.add(pod.metadata().key() + " (was " + pod.status().nominatedNodeName() + ") by "
          + preemptor.metadata().key() + " on " + nodeName);
    }
  }

  private static Pod nominatedTo(Pod p, String node) {
    return p.withStatus(p.status().withNominatedNodeName(node));
  }

  @Test
  void preemption_clearsOnlyLowerPriorityNominationsOnItsNode_throughTheEvictor() {
    Recording evictor = new Recording();
    try (Scheduler s = Scheduler.builder().clock(clock).evictor(evictor).build()) {
      s.addNode(node("n1", 2000, 8192, 110));
      s.addNode(node("n2", 100, 8192, 110));
      for (String name : List.of("a", "b", "c", "d")) {
        s.addPod(pod(name, 400, 10, 0).withNodeName("n1"));
      }
      s.addPod(pod("high", 1000, 10, 1000));
      // nominated by their own status.nominatedNodeName (kube's ModeNoop): lower, equal priority; another node
      s.addPod(nominatedTo(pod("lower", 100, 10, 500), "n1"));
      s.addPod(nominatedTo(pod("peer", 100, 10, 1000), "n1"));
      s.addPod(nominatedTo(pod("elsewhere", 100, 10, 0), "n2"));

      ScheduleResult r = s.scheduleOne();
      assertThat(r).isNotNull();
      assertThat(r.podKey()).isEqualTo("default/high");
      assertThat(r.code()).isEqualTo(Status.Code.UNSCHEDULABLE);
      assertThat(r.nominatedNodeName()).isEqualTo("n1");
      assertThat(r.victims()).hasSize(2);
      assertThat(evictor.evicted).hasSize(2);
      assertThat(evictor.cleared).containsExactly("default/lower (was n1) by default/high on n1");
    }
  }

  @Test
  void preemption_clearsTheStoredNominationOfALowerPriorityPodAtOnce() {
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
        Scheduler s = Scheduler.builder().clock(clock).store(store).build();
        StoreScheduler feed = s.attach(store)) {
      store.create(node("n1", 1000, 4096, 110));
      store.create(pod("a", 400, 10, 0).withNodeName("n1"));
      store.create(pod("b", 400, 10, 0).withNodeName("n1"));

      store.create(pod("mid", 500, 10, 500));
      ScheduleResult midResult = s.scheduleOne();
      assertThat(midResult).isNotNull();
      assertThat(midResult.nominatedNodeName()).isEqualTo("n1");
      Pod midNominated = store.require(Pod.class, "default", "mid");
      assertThat(midNominated.status().nominatedNodeName()).isEqualTo("n1");
      endVictims(store, midResult); // a kubelet ends the evicted pod (the store deletes a bound pod gracefully)

      // high does not count mid's lower-priority nomination; it needs the last pod's room too
      store.create(pod("high", 700, 10, 1000));
      ScheduleResult highResult = s.scheduleOne();
      assertThat(highResult).isNotNull();
      assertThat(highResult.podKey()).isEqualTo("default/high");
      assertThat(highResult.nominatedNodeName()).isEqualTo("n1");
      assertThat(highResult.victims()).hasSize(1);
      assertThat(store.require(Pod.class, "default", "high").status().nominatedNodeName()).isEqualTo("n1");

      // mid's nomination is gone from the store before mid's next attempt; its condition is untouched
      Pod mid = store.require(Pod.class, "default", "mid");
      assertThat(mid.status().nominatedNodeName()).isEmpty();
      assertThat(mid.status().condition(PodCondition.POD_SCHEDULED))
          .isEqualTo(midNominated.status().condition(PodCondition.POD_SCHEDULED));
      assertThat(s.pending()).extracting(PendingPod::podKey).contains("default/mid");
      assertThat(feed.scheduler()).isSameAs(s);
    }
  }

  /** A kubelet stand-in: the victims, Terminating after their graceful deletion, are ended (grace period 0). */
  static void endVictims(ObjectStore store, ScheduleResult r) {
    for (String key : r.victims()) {
      int slash = key.indexOf('/');
      store.delete(Pod.class, key.substring(0, slash), key.substring(slash + 1),
          io.fleetkit.api.store.DeleteOptions.gracePeriod(0));
    }
  }
}
