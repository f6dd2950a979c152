package io.fleetkit.scheduler.plugins.defaultpreemption;

import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.node;
import static io.fleetkit.scheduler.plugins.defaultpreemption.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.NodeToStatus;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.PostFilterResult;
import io.fleetkit.api.framework.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Invariants of victim selection on random nodes, checked with the test resource-fit filter. */
final class VictimSelectionPropertiesTest {
  private static final TestPlugins.Fit FIT = new TestPlugins.Fit();

  private static List<Pod> pods(List<Integer> cpus, List<Integer> priorities, int nodes) {
    List<Pod> out = new ArrayList<>();
    for (int i = 0; i < cpus.size(); i++) {
      out.add(pod("v" + i).node("node" + (i % nodes)).priority(priorities.get(i % priorities.size()) * 100)
          .req(ResourceList.builder().put("cpu", cpus.get(i) * 100 + "m").build()).obj());
    }
    return out;
  }

  @Property(tries = 200)
  void victims_areLowerPriority_makeRoom_andAreMinimal(
      @ForAll @Size(min = 1, max = 12) List<@IntRange(min = 1, max = 8) Integer> cpus,
      @ForAll @Size(min = 1, max = 12) List<@IntRange(min = 0, max = 4) Integer> priorities,
      @ForAll @IntRange(min = 1, max = 20) int preemptorCpu, @ForAll @IntRange(min = 0, max = 4) int preemptorPrio) {
    Node n = node("node0", ResourceList.builder().put("cpu", "2000m").build());
    TestSnapshot snapshot = new TestSnapshot(List.of(n), pods(cpus, priorities, 1));
    DefaultPreemptionPlugin plugin = new DefaultPreemptionPlugin(new TestHandle(snapshot, List.of(FIT), List.of()),
        PreemptionArgs.DEFAULTS);
    PodInfo preemptor = PodInfos.of(pod("p").priority(preemptorPrio * 100)
        .req(ResourceList.builder().put("cpu", preemptorCpu * 100 + "m").build()).obj());
    NodeInfo ni = snapshot.nodes().get(0);
    VictimSelector.Selection s = plugin.victimSelector().select(new TestCycleState(), preemptor, ni,
        PdbViolations.none());
    List<PodInfo> lower = ni.pods().stream().filter(p -> p.priority() < preemptor.priority()).toList();
    List<PodInfo> higher = ni.pods().stream().filter(p -> p.priority() >= preemptor.priority()).toList();
    if (!s.status().isSuccess()) {
      // Only when even evicting every lower-priority pod is not enough (or there is none).
      assertThat(lower.isEmpty() || !FIT.filter(new TestCycleState(), preemptor, NodeInfos.of(n, higher)).isSuccess()).isTrue();
      return;
    }
    assertThat(s.victims()).allMatch(v -> v.priority() < preemptor.priority());
    List<PodInfo> kept = new ArrayList<>(ni.pods());
    kept.removeAll(s.victims());
    assertThat(FIT.filter(new TestCycleState(), preemptor, NodeInfos.of(n, kept)).isSuccess()).isTrue();
    for (PodInfo v : s.victims()) {
      List<PodInfo> withV = new ArrayList<>(kept);
      withV.add(v);
      assertThat(FIT.filter(new TestCycleState(), preemptor, NodeInfos.of(n, withV)).isSuccess()).as("reprieving %s", v).isFalse();
    }
  }

  @Property(tries = 50)
  void postFilter_sameSeed_sameResult(
      @ForAll @Size(min = 1, max = 30) List<@IntRange(min = 1, max = 8) Integer> cpus,
      @ForAll @Size(min = 1, max = 30) List<@IntRange(min = 0, max = 4) Integer> priorities,
      @ForAll @IntRange(min = 1, max = 20) int preemptorCpu, @ForAll long seed) {
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      nodes.add(node("node" + i, ResourceList.builder().put("cpu", "2000m").build()));
    }
    TestSnapshot snapshot = new TestSnapshot(nodes, pods(cpus, priorities, nodes.size()));
    Pod p = pod("p").priority(1000).req(ResourceList.builder().put("cpu", preemptorCpu * 100 + "m").build()).obj();
    PostFilterResult first = null;
    for (int run = 0; run < 2; run++) {
      DefaultPreemptionPlugin plugin = new DefaultPreemptionPlugin(new TestHandle(snapshot, List.of(FIT), List.of()),
          new PreemptionArgs(10, 2, seed));
      PostFilterResult r = plugin.postFilter(new TestCycleState(), PodInfos.of(p), snapshot,
          new NodeToStatus(Map.of(), Status.Code.UNSCHEDULABLE));
      if (first == null) {
        first = r;
      } else {
        assertThat(r).isEqualTo(first);
      }
    }
  }
}
