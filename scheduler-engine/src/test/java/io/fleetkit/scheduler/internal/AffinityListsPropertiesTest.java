package io.fleetkit.scheduler.internal;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.PodAffinity;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import io.fleetkit.api.scheduling.WeightedPodAffinityTerm;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The snapshot's affinity lists ({@link ClusterSnapshot#nodesWithAffinityPods()},
 * {@link ClusterSnapshot#nodesWithRequiredAntiAffinityPods()}), updated in place as nodes gain and lose pods with
 * (anti-)affinity, always equal the nodes that hold such pods, in the snapshot's node order, as a full rebuild gives
 * them: under any mix of pods added (plain, with required anti-affinity, with preferred affinity only), moved, removed,
 * and nodes added and removed.
 */
final class AffinityListsPropertiesTest {
  private static final int NODES = 8;
  private static final int PODS = 12;
  private static final PodAffinityTerm TERM = PodAffinityTerm.of(LabelSelector.of(Map.of("app", "x")),
      "kubernetes.io/hostname");

  @Property(tries = 200)
  void listsFollowThePods(@ForAll @Size(min = 1, max = 60) List<@IntRange(min = 0, max = 4) Integer> kinds,
      @ForAll @Size(min = 60, max = 60) List<@IntRange(min = 0, max = NODES - 1) Integer> nodes,
      @ForAll @Size(min = 60, max = 60) List<@IntRange(min = 0, max = PODS - 1) Integer> pods) {
    SchedulerCache c = new SchedulerCache(30_000_000_000L);
    Set<Integer> present = new HashSet<>();
    for (int n = 0; n < NODES; n++) {
      c.putNode(node("n" + n, 64_000, 1 << 20, 1000));
      present.add(n);
    }
    ClusterSnapshot s = new ClusterSnapshot();
    c.updateSnapshot(s);
    for (int step = 0; step < kinds.size(); step++) {
      int kind = kinds.get(step);
      String nodeName = "n" + nodes.get(step);
      String podName = "p" + pods.get(step);
      switch (kind) {
        case 0, 1, 2 -> {
          if (present.contains(nodes.get(step))) {
            c.removePod("default/" + podName);
            c.addOrUpdateBoundPod(EnginePodInfo.of(variant(podName, kind).withNodeName(nodeName)));
          }
        }
        case 3 -> c.removePod("default/" + podName);
        default -> {
          if (present.remove(nodes.get(step))) {
            c.removeNode(nodeName);
          } else {
            c.putNode(node(nodeName, 64_000, 1 << 20, 1000));
            present.add(nodes.get(step));
          }
        }
      }
      c.updateSnapshot(s);
      assertThat(names(s.nodesWithAffinityPods())).as("affinity list after step %d", step)
          .isEqualTo(names(s.nodes().stream().filter(n -> !n.podsWithAffinity().isEmpty()).toList()));
      assertThat(names(s.nodesWithRequiredAntiAffinityPods())).as("anti-affinity list after step %d", step)
          .isEqualTo(names(s.nodes().stream().filter(n -> !n.podsWithRequiredAntiAffinity().isEmpty()).toList()));
    }
  }

  /** 0: no affinity; 1: required anti-affinity; 2: preferred affinity only. */
  private static Pod variant(String name, int kind) {
    Pod p = pod(name, 10, 10);
    return switch (kind) {
      case 1 -> p.toBuilder().affinity(new Affinity(null, null, new PodAffinity(List.of(TERM), List.of()))).build();
      case 2 -> p.toBuilder().affinity(new Affinity(null,
          new PodAffinity(List.of(), List.of(new WeightedPodAffinityTerm(10, TERM))), null)).build();
      default -> p;
    };
  }

  private static List<String> names(List<NodeInfo> nodes) {
    return nodes.stream().map(NodeInfo::name).toList();
  }
}
