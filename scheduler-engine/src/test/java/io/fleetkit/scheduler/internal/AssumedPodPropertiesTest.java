package io.fleetkit.scheduler.internal;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.PodAffinity;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import io.fleetkit.api.scheduling.WeightedPodAffinityTerm;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * An assumed pod whose bound copy is made on first read ({@link EnginePodInfo#assumedOn}) against the copy made at
 * assumption ({@code withPod(pod().withNodeName(node))}, as before): the same pod object by value, the same key,
 * requests and priority, the same affinity flags as {@link NodeInfos} computes from the copy; and a cache fed with
 * one or the other form holds equal nodes (pods, affinity lists, requests) after random assumptions, bindings and
 * removals.
 */
final class AssumedPodPropertiesTest {
  private static final int NODES = 5;
  private static final PodAffinityTerm TERM = PodAffinityTerm.of(LabelSelector.of(Map.of("app", "x")),
      "kubernetes.io/hostname");

  @Property(tries = 300)
  void assumedOn_equalsTheEagerCopy(@ForAll @IntRange(min = 0, max = 3) int kind,
      @ForAll @IntRange(min = 0, max = NODES - 1) int node, @ForAll boolean readFirst) {
    EnginePodInfo pending = EnginePodInfo.of(variant("p", kind));
    String nodeName = "n" + node;
    EnginePodInfo lazy = pending.assumedOn(nodeName);
    EnginePodInfo eager = pending.withPod(pending.pod().withNodeName(nodeName));
    if (readFirst) {
      assertThat(lazy.hasAffinity()).isEqualTo(NodeInfos.hasAffinity(eager.pod()));
    }
    assertThat(lazy.pod()).isEqualTo(eager.pod());
    assertThat(lazy.pod()).as("made once").isSameAs(lazy.pod());
    assertThat(lazy.pod().spec().nodeName()).isEqualTo(nodeName);
    assertThat(lazy.key()).isEqualTo(eager.key());
    assertThat(lazy.requests()).isEqualTo(eager.requests());
    assertThat(lazy.nonZeroMilliCpu()).isEqualTo(eager.nonZeroMilliCpu());
    assertThat(lazy.nonZeroMemory()).isEqualTo(eager.nonZeroMemory());
    assertThat(lazy.priority()).isEqualTo(eager.priority());
    assertThat(lazy.hasAffinity()).isEqualTo(NodeInfos.hasAffinity(eager.pod()));
    assertThat(lazy.hasRequiredAntiAffinity()).isEqualTo(NodeInfos.hasRequiredAntiAffinity(eager.pod()));
    assertThat(pending.pod().spec().nodeName()).as("the pending pod is unchanged").isEqualTo(kind == 3 ? "n0" : "");
  }

  @Property(tries = 200)
  void cache_sameNodesEitherWay(@ForAll @Size(min = 1, max = 50) List<@IntRange(min = 0, max = 5) Integer> ops,
      @ForAll @Size(min = 50, max = 50) List<@IntRange(min = 0, max = NODES - 1) Integer> nodes,
      @ForAll @Size(min = 50, max = 50) List<@IntRange(min = 0, max = 9) Integer> pods) {
    SchedulerCache lazyCache = cache();
    SchedulerCache eagerCache = cache();
    ClusterSnapshot lazySnap = new ClusterSnapshot();
    ClusterSnapshot eagerSnap = new ClusterSnapshot();
    for (int step = 0; step < ops.size(); step++) {
      String name = "p" + pods.get(step);
      String key = "default/" + name;
      String nodeName = "n" + nodes.get(step);
      int op = ops.get(step);
      if (op <= 2) { // assume (a pod of kind op), unless held
        if (!lazyCache.hasPod(key)) {
          EnginePodInfo pending = EnginePodInfo.of(variant(name, op));
          lazyCache.assume(pending.assumedOn(nodeName), nodeName);
          eagerCache.assume(pending.withPod(pending.pod().withNodeName(nodeName)), nodeName);
        }
      } else if (op == 3) { // the bound object is observed
        PodInfo held = eagerCache.podInfo(key);
        if (held != null) {
          lazyCache.addOrUpdateBoundPod(EnginePodInfo.of(held.pod()));
          eagerCache.addOrUpdateBoundPod(EnginePodInfo.of(held.pod()));
        }
      } else if (op == 4) {
        lazyCache.forget(key);
        eagerCache.forget(key);
      } else {
        lazyCache.removePod(key);
        eagerCache.removePod(key);
      }
      lazyCache.updateSnapshot(lazySnap);
      eagerCache.updateSnapshot(eagerSnap);
      for (int n = 0; n < NODES; n++) {
        NodeInfo a = lazySnap.nodes().get(n);
        NodeInfo b = eagerSnap.nodes().get(n);
        assertThat(pods(a.pods())).as("pods of %s after step %d", a.name(), step).isEqualTo(pods(b.pods()));
        assertThat(pods(a.podsWithAffinity())).isEqualTo(pods(b.podsWithAffinity()));
        assertThat(pods(a.podsWithRequiredAntiAffinity())).isEqualTo(pods(b.podsWithRequiredAntiAffinity()));
        assertThat(a.requested()).isEqualTo(b.requested());
        assertThat(a.requestedMilliCpu()).isEqualTo(b.requestedMilliCpu()).isEqualTo(a.requested().milliCpu());
        assertThat(a.requestedMemory()).isEqualTo(b.requestedMemory()).isEqualTo(a.requested().memoryBytes());
        assertThat(a.requestedEphemeralStorage()).isEqualTo(a.requested().ephemeralStorageBytes());
      }
      assertThat(lazySnap.nodesWithAffinityPods().size()).isEqualTo(eagerSnap.nodesWithAffinityPods().size());
      assertThat(lazySnap.nodesWithRequiredAntiAffinityPods().size())
          .isEqualTo(eagerSnap.nodesWithRequiredAntiAffinityPods().size());
    }
  }

  private static SchedulerCache cache() {
    SchedulerCache c = new SchedulerCache(30_000_000_000L);
    for (int n = 0; n < NODES; n++) {
      c.putNode(node("n" + n, 64_000, 1 << 20, 1000));
    }
    return c;
  }

  private static List<Pod> pods(List<PodInfo> infos) {
    return infos.stream().map(PodInfo::pod).toList();
  }

  /** 0: no affinity; 1: required anti-affinity; 2: preferred affinity only; 3: already naming node n0. */
  private static Pod variant(String name, int kind) {
    Pod p = pod(name, 10 + name.length(), 10);
    return switch (kind) {
      case 1 -> p.toBuilder().affinity(new Affinity(null, null, new PodAffinity(List.of(TERM), List.of()))).build();
      case 2 -> p.toBuilder().affinity(new Affinity(null,
          new PodAffinity(List.of(), List.of(new WeightedPodAffinityTerm(10, TERM))), null)).build();
      case 3 -> p.withNodeName("n0");
      default -> p;
    };
  }
}
