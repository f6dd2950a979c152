package io.fleetkit.scheduler.internal;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.PodAffinity;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link SchedulerCache#addOrUpdateBoundPod} of a pod held on the same node that counts there as before (a status
 * write, a confirmation), which replaces the pod without touching the node's sums, against removing the pod and adding
 * it again: the same node views (pods and affinity lists in the same order, the same sums as lists and amounts, the
 * same generations), the same snapshot and the same assumed pods, whatever the requests (standard amounts up to the
 * long range, extended resources), affinities, nodes and placeholders.
 */
final class SchedulerCacheReplacePropertyTest {
  private static final String[] NODES = {"n0", "n1", "n2"};
  private static final Affinity ANTI = new Affinity(null, null, new PodAffinity(
      List.of(PodAffinityTerm.of(LabelSelector.of(Map.of("app", "x")), "kubernetes.io/hostname")), List.of()));

  private static Pod pod(Random r, int i, String node) {
    ResourceList.Builder req = ResourceList.builder();
    int kind = r.nextInt(6);
    long big = r.nextInt(4) == 0 ? Long.MAX_VALUE / 2 : 0; // sums past the long range saturate
    if (kind > 0) {
      req.put("cpu", (big + r.nextInt(3) * 250) + "m");
    }
    if (kind > 1) {
      req.put("memory", String.valueOf(r.nextInt(3) * 1024));
    }
    if (kind == 4) {
      req.put("ephemeral-storage", "1Gi");
    }
    if (kind == 5) {
      req.put("nvidia.com/gpu", String.valueOf(r.nextInt(2)));
    }
    Pod.Builder b = Pod.builder().name("p" + i).label("app", r.nextBoolean() ? "x" : "y")
        .container("c", "img", req.build()).nodeName(node);
    if (r.nextInt(4) == 0) {
      b.affinity(ANTI);
    }
    return b.build();
  }

  @Property(tries = 200)
  void replacingOnTheSameNode_endsAsRemoveAndAdd(@ForAll @IntRange(min = 1, max = 120) int steps,
      @ForAll long seed) {
    Random r = new Random(seed);
    SchedulerCache fast = new SchedulerCache(r.nextBoolean() ? 1_000L : 0L);
    SchedulerCache simple = new SchedulerCache(r.nextBoolean() ? 1_000L : 0L);
    ClusterSnapshot fastSnap = new ClusterSnapshot();
    ClusterSnapshot simpleSnap = new ClusterSnapshot();
    Pod[] held = new Pod[8];
    for (String n : NODES) {
      fast.putNode(node(n, 4000, 8192, 110));
      simple.putNode(node(n, 4000, 8192, 110));
    }
    for (int step = 0; step < steps; step++) {
      int i = r.nextInt(held.length);
      int op = r.nextInt(10);
      String key = "default/p" + i;
      if (op < 4 && held[i] != null) { // a status write, or a change of what counts on the node
        Pod p = r.nextInt(3) > 0 ? held[i].withStatus(held[i].status().withReason("Step", "m" + step))
            : pod(r, i, r.nextInt(4) == 0 ? NODES[r.nextInt(NODES.length)] : held[i].spec().nodeName());
        held[i] = p;
        fast.addOrUpdateBoundPod(EnginePodInfo.of(p));
        simple.removePod(key);
        simple.addOrUpdateBoundPod(EnginePodInfo.of(p));
      } else if (op < 6 && held[i] == null) { // assumed, then (later) confirmed by the status write above
        Pod p = pod(r, i, NODES[r.nextInt(NODES.length)]);
        held[i] = p;
        fast.assume(EnginePodInfo.of(p), p.spec().nodeName());
        simple.assume(EnginePodInfo.of(p), p.spec().nodeName());
      } else if (op < 7 && held[i] != null) {
        held[i] = null;
        assertThat(fast.removePod(key)).isEqualTo(simple.removePod(key));
      } else if (op < 8) { // a node leaves (its pods keep a placeholder) or comes back
        String n = NODES[r.nextInt(NODES.length)];
        if (fast.hasNode(n)) {
          fast.removeNode(n);
          simple.removeNode(n);
        } else {
          fast.putNode(node(n, 4000, 8192, 110));
          simple.putNode(node(n, 4000, 8192, 110));
        }
      } else if (op < 9) {
        assertThat(fast.updateSnapshot(fastSnap)).isEqualTo(simple.updateSnapshot(simpleSnap));
        assertSame(fastSnap.nodes(), simpleSnap.nodes());
      }
      assertThat(fast.assumedCount()).isEqualTo(simple.assumedCount());
      assertThat(fast.podCount()).isEqualTo(simple.podCount());
      for (String n : NODES) {
        assertThat(fast.hasNode(n)).isEqualTo(simple.hasNode(n));
        NodeInfo a = fast.nodeInfo(n);
        NodeInfo b = simple.nodeInfo(n);
        if (a != null) {
          assertSame(List.of(a), List.of(b));
        }
      }
      for (int j = 0; j < held.length; j++) {
        assertThat(fast.isAssumed("default/p" + j)).isEqualTo(simple.isAssumed("default/p" + j));
      }
    }
  }

  private static void assertSame(List<NodeInfo> fast, List<NodeInfo> simple) {
    assertThat(fast).hasSameSizeAs(simple);
    for (int i = 0; i < fast.size(); i++) {
      NodeInfo a = fast.get(i);
      NodeInfo b = simple.get(i);
      assertThat(a.name()).isEqualTo(b.name());
      assertThat(a.generation()).isEqualTo(b.generation());
      assertThat(keys(a.pods())).isEqualTo(keys(b.pods()));
      assertThat(keys(a.podsWithAffinity())).isEqualTo(keys(b.podsWithAffinity()));
      assertThat(keys(a.podsWithRequiredAntiAffinity())).isEqualTo(keys(b.podsWithRequiredAntiAffinity()));
      assertThat(a.requested()).isEqualTo(b.requested());
      assertThat(a.requested().toString()).isEqualTo(b.requested().toString());
      assertThat(a.requestedMilliCpu()).isEqualTo(b.requestedMilliCpu());
      assertThat(a.requestedMemory()).isEqualTo(b.requestedMemory());
      assertThat(a.requestedEphemeralStorage()).isEqualTo(b.requestedEphemeralStorage());
      assertThat(a.nonZeroRequestedMilliCpu()).isEqualTo(b.nonZeroRequestedMilliCpu());
      assertThat(a.nonZeroRequestedMemory()).isEqualTo(b.nonZeroRequestedMemory());
      for (int j = 0; j < a.pods().size(); j++) {
        assertThat(a.pods().get(j).pod()).isEqualTo(b.pods().get(j).pod());
      }
    }
  }

  private static List<String> keys(List<PodInfo> pods) {
    return pods.stream().map(PodInfo::key).toList();
  }
}
