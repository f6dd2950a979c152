package io.fleetkit.scheduler.internal;

import static io.fleetkit.scheduler.internal.QueueHarness.hpp;
import static io.fleetkit.scheduler.internal.QueueHarness.hppNominated;
import static io.fleetkit.scheduler.internal.QueueHarness.mpp;
import static io.fleetkit.scheduler.internal.QueueHarness.pod;
import static io.fleetkit.scheduler.internal.QueueHarness.up;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.PodInfo;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The nominator's {@code AddNominatedPod}: {@code TestPriorityQueue_UpdateNominatedPodForNode} and
 * {@code TestPriorityQueue_NominatedPodDeleted} from {@code kubernetes/kubernetes
 * pkg/scheduler/backend/queue/scheduling_queue_test.go} (commit 0113538e59bdee8f21d1948e27360427cfb349f8). Upstream's
 * informer pod lister, filled with the test's objects, is a map from key to pod here ({@link #lister}); in the
 * scheduler the lister is {@link EventHandlers#currentPod}. Upstream's {@code NominatingInfo} in
 * {@code ModeOverride} is the override node, {@code nil} (ModeNoop) is a null override.
 */
final class SchedulingQueueNominatorUpstreamTest {
  private final Map<String, Pod> objects = new HashMap<>();
  private final Function<String, @Nullable Pod> lister = objects::get;

  private void objects(Pod... pods) {
    for (Pod p : pods) {
      objects.put(p.metadata().key(), p);
    }
  }

  private static PodInfo info(Pod pod) {
    return EnginePodInfo.of(pod);
  }

  /** Upstream's {@code scheduledPodInfo}: ns1/sp, bound to node foo. */
  private static Pod sp() {
    return pod("sp", "ns1", 0).toBuilder().nodeName("foo").build();
  }

  /** Upstream's {@code nonExistentPodInfo}: ns1/ne, in no lister. */
  private static Pod ne() {
    return pod("ne", "ns1", 0);
  }

  /** Asserts the nominator holds exactly {@code want} (pod key to node), one pod per listed node, nothing else. */
  private static void assertNominated(Nominator n, Map<String, String> want, String... otherNodes) {
    Map<String, Integer> perNode = new HashMap<>();
    want.forEach((pod, node) -> {
      assertThat(n.nodeOf(pod)).as("node of %s", pod).isEqualTo(node);
      perNode.merge(node, 1, Integer::sum);
    });
    perNode.forEach((node, count) -> assertThat(n.forNode(node)).as("pods on %s", node).hasSize(count)
        .allSatisfy(p -> assertThat(want.get(p.key())).isEqualTo(node)));
    for (String node : otherNodes) {
      assertThat(n.forNode(node)).as("pods on %s", node).isNull();
    }
  }

  /** TestPriorityQueue_UpdateNominatedPodForNode. */
  @Test
  void updateNominatedPodForNode_overridesMovesAndIgnoresDeletedOrBoundPods() {
    QueueHarness h = new QueueHarness().build();
    objects(mpp(), up(), hpp(), sp());
    Nominator n = h.nominator;
    h.add(mpp());
    // unschedulablePodInfo on a different node than its object names
    assertThat(n.addNominated(info(up()), "node5", lister)).isTrue();
    // a pod whose object names no node
    assertThat(n.addNominated(info(hpp()), "node2", lister)).isTrue();
    Map<String, String> want = Map.of("ns2/mpp", "node1", "ns1/hpp", "node2", "ns1/up", "node5");
    assertNominated(n, want);
    h.pop(mpp());
    assertNominated(n, want); // popping does not change the nominations
    assertThat(n.addNominated(info(hpp()), "node4", lister)).isTrue();
    want = Map.of("ns2/mpp", "node1", "ns1/hpp", "node4", "ns1/up", "node5");
    assertNominated(n, want, "node2");
    // a pod deleted from the informer cache: nothing changes
    assertThat(n.addNominated(info(ne()), "node1", lister)).isFalse();
    assertNominated(n, want, "node2");
    assertThat(n.nodeOf("ns1/ne")).isNull();
    // a pod already scheduled in the informer cache: nothing changes
    assertThat(n.addNominated(info(sp()), "node1", lister)).isFalse();
    assertNominated(n, want, "node2");
    assertThat(n.nodeOf("ns1/sp")).isNull();
    // DeleteNominatedPodIfExists of the pod whose object names no node
    n.remove(hpp().metadata().key());
    assertNominated(n, Map.of("ns2/mpp", "node1", "ns1/up", "node5"), "node2", "node4");
    assertThat(n.nodeOf("ns1/hpp")).isNull();
  }

  /** TestPriorityQueue_NominatedPodDeleted, "alive pod gets added into PodNominator". */
  @Test
  void nominatedPodDeleted_alivePodIsNominated() {
    Nominator n = new Nominator();
    objects(mpp());
    assertThat(n.addNominated(info(mpp()), null, lister)).isTrue();
    assertThat(n.forNode("node1")).extracting(PodInfo::key).containsExactly("ns2/mpp");
  }

  /** TestPriorityQueue_NominatedPodDeleted, "deleted pod shouldn't be added into PodNominator". */
  @Test
  void nominatedPodDeleted_deletedPodIsNotNominated() {
    Nominator n = new Nominator();
    objects(hppNominated());
    objects.remove(hppNominated().metadata().key()); // deleted from the informer's store
    assertThat(n.addNominated(info(hppNominated()), null, lister)).isFalse();
    assertThat(n.forNode("node1")).isNull();
    assertThat(n.isEmpty()).isTrue();
  }

  /** TestPriorityQueue_NominatedPodDeleted, "pod without .status.nominatedPodName specified shouldn't be added". */
  @Test
  void nominatedPodDeleted_podWithoutNominatedNodeNameIsNotNominated() {
    Nominator n = new Nominator();
    objects(hpp());
    assertThat(n.addNominated(info(hpp()), null, lister)).isFalse();
    assertThat(n.isEmpty()).isTrue();
    // through the event handlers as well
    QueueHarness h = new QueueHarness().build();
    h.add(hpp());
    assertThat(h.nominator.isEmpty()).isTrue();
  }

  /** FleetKit's lister: a pending pod the scheduler holds is nominated; a deleted or bound one is dropped and not re-added. */
  @Test
  void eventHandlers_nominateOnlyPodsTheSchedulerHoldsUnbound() {
    QueueHarness h = new QueueHarness().build();
    h.add(mpp());
    assertThat(h.handlers.currentPod("ns2/mpp")).isEqualTo(mpp());
    assertThat(h.nominator.addNominated(info(mpp()), "node2", h.handlers::currentPod)).isTrue();
    assertThat(h.nominator.nodeOf("ns2/mpp")).isEqualTo("node2");
    h.delete(mpp());
    assertThat(h.handlers.currentPod("ns2/mpp")).isNull();
    assertThat(h.nominator.isEmpty()).isTrue();
    assertThat(h.nominator.addNominated(info(mpp()), "node2", h.handlers::currentPod)).isFalse();
    assertThat(h.nominator.isEmpty()).isTrue();
  }

  /** Upstream's deletePodFromSchedulingQueue: a nominated pod handed to another scheduler loses its nomination too. */
  @Test
  void eventHandlers_podHandedToAnotherScheduler_leavesQueueAndNominator() {
    QueueHarness h = new QueueHarness().build();
    h.add(mpp());
    assertThat(h.nominator.nodeOf("ns2/mpp")).isEqualTo("node1");
    h.handlers.putPod(mpp().toBuilder().schedulerName("someone-else").build());
    assertThat(h.handlers.currentPod("ns2/mpp")).isNull();
    assertThat(h.nominator.isEmpty()).as("no room held on node1 for a pod this scheduler no longer places").isTrue();
  }
}
