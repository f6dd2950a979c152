package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.EnqueueExtensions;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.ReservePlugin;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * kube's {@code Pending} status code ({@link Status.Code#PENDING}) through whole scheduling cycles: a plugin that
 * waits for something outside the scheduler rejects without backoff once its hint queues the pod again, is not a
 * preemption target, and is an error at PreFilter, as kube-scheduler's {@code schedule_one.go},
 * {@code framework/runtime/framework.go} and {@code backend/queue/scheduling_queue.go}.
 */
final class PendingStatusTest {
  private static final String WAITS = "WaitsForDriver";
  private final ManualClock clock = ManualClock.atEpoch2026();

  /**
   * A plugin that answers {@code answer} at {@code point} (at Filter: for every node, or, unless {@code everyNode},
   * for nodes that hold pods) and whose hint queues the pod on a node add: a device driver that provisions for a node.
   */
  private static final class Waits implements FilterPlugin, ReservePlugin, PreFilterPlugin, EnqueueExtensions {
    final Status.Code answer;
    final String point;
    final boolean everyNode;

    Waits(Status.Code answer, String point, boolean everyNode) {
      this.answer = answer;
      this.point = point;
      this.everyNode = everyNode;
    }

    @Override
    public String name() {
      return WAITS;
    }

    private Status status() {
      return answer == Status.Code.PENDING ? Status.pending("waiting for the device driver")
          : Status.unschedulable("waiting for the device driver");
    }

    @Override
    public PreFilterResult preFilter(CycleState state, PodInfo pod, Snapshot snapshot) {
      return point.equals("PreFilter") ? PreFilterResult.of(status()) : PreFilterResult.of(Status.success());
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      return point.equals("Filter") && (everyNode || !node.pods().isEmpty()) ? status() : Status.success();
    }

    @Override
    public Status reserve(CycleState state, PodInfo pod, String nodeName) {
      return point.equals("Reserve") ? status() : Status.success();
    }

    @Override
    public void unreserve(CycleState state, PodInfo pod, String nodeName) {}

    @Override
    public Set<ClusterEvent> eventsToRegister() {
      return Set.of(ClusterEvent.NODE_ADD);
    }

    @Override
    public boolean isSchedulableAfter(Pod pod, ClusterEvent event, Object oldObject, Object newObject) {
      return true;
    }
  }

  private Scheduler scheduler(Waits plugin, List<Pod> evicted) {
    // the plugin first, so that its answer is each node's status (Filter stops at the first rejection, as kube's)
    SchedulerProfile.Builder b = SchedulerProfile.builder(PodSpec.DEFAULT_SCHEDULER).plugin(WAITS);
    for (SchedulerProfile.PluginRef ref : DefaultPlugins.profile().plugins()) {
      b.plugin(ref.name(), ref.weight());
    }
    SchedulerProfile profile = b.build();
    return Scheduler.builder().registry(PluginRegistry.defaults().with(WAITS, h -> plugin)).profile(profile)
        .clock(clock).seed(3).parallelism(1).evictor(evicted::add).build();
  }

  private static PendingPod.Queue queueOf(Scheduler s, String key) {
    return s.pending().stream().filter(p -> p.podKey().equals(key)).findFirst().orElseThrow().queue();
  }

  @Test
  void filterPending_podParked_thenQueuedStraightToActiveQByItsHint() {
    try (Scheduler s = scheduler(new Waits(Status.Code.PENDING, "Filter", true), new ArrayList<>())) {
      s.addNode(node("n1", 4000, 8192, 110));
      s.addPod(pod("p", 100, 10));
      ScheduleResult r = s.scheduleOne();
      assertThat(r.isBound()).isFalse();
      assertThat(r.code()).isEqualTo(Status.Code.UNSCHEDULABLE); // a FitError, as kube's
      assertThat(r.message()).startsWith("0/1 nodes are available: 1 waiting for the device driver.");
      assertThat(queueOf(s, "default/p")).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);
      s.addNode(node("n2", 4000, 8192, 110)); // the pending plugin's hint answers Queue: no backoff
      assertThat(queueOf(s, "default/p")).isEqualTo(PendingPod.Queue.ACTIVE);
    }
  }

  @Test
  void filterUnschedulable_sameHint_backsOffInstead() {
    try (Scheduler s = scheduler(new Waits(Status.Code.UNSCHEDULABLE, "Filter", true), new ArrayList<>())) {
      s.addNode(node("n1", 4000, 8192, 110));
      s.addPod(pod("p", 100, 10));
      s.scheduleOne();
      assertThat(queueOf(s, "default/p")).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);
      s.addNode(node("n2", 4000, 8192, 110));
      assertThat(queueOf(s, "default/p")).isEqualTo(PendingPod.Queue.BACKOFF);
    }
  }

  @Test
  void reservePending_rejectionAfterReserve_queuedStraightToActiveQ() {
    try (Scheduler s = scheduler(new Waits(Status.Code.PENDING, "Reserve", true), new ArrayList<>())) {
      s.addNode(node("n1", 4000, 8192, 110));
      s.addPod(pod("p", 100, 10));
      ScheduleResult r = s.scheduleOne();
      assertThat(r.isBound()).isFalse();
      assertThat(r.code()).isEqualTo(Status.Code.UNSCHEDULABLE);
      assertThat(s.nodeInfo("n1").orElseThrow().pods()).isEmpty(); // unreserved and forgotten
      assertThat(queueOf(s, "default/p")).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);
      s.addNode(node("n2", 4000, 8192, 110));
      assertThat(queueOf(s, "default/p")).isEqualTo(PendingPod.Queue.ACTIVE);
    }
  }

  @Test
  void preFilterPending_isAnError() {
    try (Scheduler s = scheduler(new Waits(Status.Code.PENDING, "PreFilter", true), new ArrayList<>())) {
      s.addNode(node("n1", 4000, 8192, 110));
      s.addPod(pod("p", 100, 10));
      ScheduleResult r = s.scheduleOne();
      assertThat(r.code()).isEqualTo(Status.Code.ERROR);
      assertThat(queueOf(s, "default/p")).isEqualTo(PendingPod.Queue.BACKOFF);
    }
  }

  /**
   * The only node is full and the plugin rejects it while it holds a pod. Rejected as Unschedulable, the node is a
   * preemption candidate: the dry run without the low-priority pod passes, so that pod is evicted. Rejected as Pending,
   * it is not (kube's {@code nodesWherePreemptionMightHelp} takes only Unschedulable nodes): nothing is evicted.
   */
  @Test
  void pendingNode_isNoPreemptionCandidate() {
    for (Status.Code answer : List.of(Status.Code.UNSCHEDULABLE, Status.Code.PENDING)) {
      List<Pod> evicted = new ArrayList<>();
      try (Scheduler s = scheduler(new Waits(answer, "Filter", false), evicted)) {
        s.addNode(node("n1", 1000, 8192, 110));
        s.addPod(pod("low", 800, 10, 0).withNodeName("n1"));
        s.addPod(pod("high", 800, 10, 100));
        ScheduleResult r = s.scheduleOne();
        assertThat(r.isBound()).as(answer.toString()).isFalse();
        if (answer == Status.Code.PENDING) {
          assertThat(evicted).isEmpty();
          assertThat(r.victims()).isEmpty();
          assertThat(r.nominatedNodeName()).isNull();
        } else {
          assertThat(r.victims()).containsExactly("default/low");
          assertThat(evicted).extracting(p -> p.metadata().key()).containsExactly("default/low");
        }
      }
    }
  }
}
