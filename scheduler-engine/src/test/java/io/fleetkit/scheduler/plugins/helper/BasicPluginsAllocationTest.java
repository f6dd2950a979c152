package io.fleetkit.scheduler.plugins.helper;

import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.node;
import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.nodeInfo;
import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.pod;
import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.podInfo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.api.scheduling.PreferredSchedulingTerm;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.scheduler.plugins.nodeaffinity.NodeAffinityPlugin;
import io.fleetkit.scheduler.plugins.nodename.NodeNamePlugin;
import io.fleetkit.scheduler.plugins.nodeunschedulable.NodeUnschedulablePlugin;
import io.fleetkit.scheduler.plugins.tainttoleration.TaintTolerationPlugin;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Filter and Score of the basic plugins run once per node per pod, so after PreFilter/PreScore they must not
 * allocate, whether the node passes or is rejected: 100k rounds may allocate no more than a few kilobytes.
 */
final class BasicPluginsAllocationTest {
  private static long allocatedBytes() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
  }

  private static NodeSelectorRequirement req(String key, NodeSelectorOperator op, String... values) {
    return new NodeSelectorRequirement(key, op, List.of(values));
  }

  @Test
  void filterAndScore_afterPreSteps_doNotAllocate() {
    assumeThat(ManagementFactory.getThreadMXBean()).isInstanceOf(com.sun.management.ThreadMXBean.class);
    NodeAffinity podAffinity = new NodeAffinity(
        new NodeSelector(List.of(new NodeSelectorTerm(List.of(req("zone", NodeSelectorOperator.In, "z1", "z2")),
            List.of()))),
        List.of(new PreferredSchedulingTerm(5, new NodeSelectorTerm(List.of(req("gpu", NodeSelectorOperator.Exists)),
            List.of()))));
    PodInfo pod = podInfo(pod("p").nodeSelector("app", "web").affinity(new Affinity(podAffinity, null, null))
        .toleration(Toleration.exists("dedicated", TaintEffect.NoSchedule))
        .toleration(Toleration.equal("node.kubernetes.io/unschedulable", "", TaintEffect.NoSchedule))
        .toleration(Toleration.equal("soft", "x", null)).build());
    NodeInfo fits = nodeInfo(node("n1").labels(Map.of("zone", "z1", "app", "web", "gpu", "a100")).unschedulable(true)
        .taints(List.of(Taint.of("dedicated", "ml", TaintEffect.NoSchedule),
            Taint.of("soft", "x", TaintEffect.PreferNoSchedule),
            Taint.of("soft2", "y", TaintEffect.PreferNoSchedule))));
    NodeInfo rejected = nodeInfo(node("n2").labels(Map.of("zone", "z9"))
        .taints(List.of(Taint.of("other", "v", TaintEffect.NoExecute))));

    NodeNamePlugin nodeName = NodeNamePlugin.INSTANCE;
    NodeUnschedulablePlugin unschedulable = NodeUnschedulablePlugin.INSTANCE;
    TaintTolerationPlugin taints = new TaintTolerationPlugin();
    NodeAffinityPlugin affinity = new NodeAffinityPlugin(new NodeAffinity(null,
        List.of(new PreferredSchedulingTerm(3, new NodeSelectorTerm(List.of(req("zone", NodeSelectorOperator.In, "z1")),
            List.of())))));
    CycleState state = new SimpleCycleState();
    assertThat(affinity.preFilter(state, pod, new SimpleSnapshot(List.of(fits, rejected))).status().isSuccess())
        .isTrue();
    assertThat(affinity.preScore(state, pod, List.of(fits)).isSuccess()).isTrue();
    assertThat(taints.preScore(state, pod, List.of(fits)).isSuccess()).isTrue();

    long sink = 0;
    for (int i = 0; i < 20_000; i++) { // warm up
      sink += round(state, pod, fits, rejected, nodeName, unschedulable, taints, affinity);
    }
    long before = allocatedBytes();
    for (int i = 0; i < 100_000; i++) {
      sink += round(state, pod, fits, rejected, nodeName, unschedulable, taints, affinity);
    }
    long allocated = allocatedBytes() - before;
    // per round: 4 passes on fits, 2 rejections on rejected, taint score 1 (soft2), affinity score 5 + 3
    assertThat(sink).isEqualTo(120_000L * 15);
    assertThat(allocated).as("bytes allocated by 100k rounds").isLessThan(16 * 1024);
  }

  private static long round(CycleState state, PodInfo pod, NodeInfo fits, NodeInfo rejected, NodeNamePlugin nodeName,
      NodeUnschedulablePlugin unschedulable, TaintTolerationPlugin taints, NodeAffinityPlugin affinity) {
    long s = 0;
    s += nodeName.filter(state, pod, fits).isSuccess() ? 1 : 0;
    s += unschedulable.filter(state, pod, fits).isSuccess() ? 1 : 0;
    s += taints.filter(state, pod, fits).isSuccess() ? 1 : 0;
    s += affinity.filter(state, pod, fits).isSuccess() ? 1 : 0;
    s += taints.filter(state, pod, rejected).isRejected() ? 1 : 0;
    s += affinity.filter(state, pod, rejected).isRejected() ? 1 : 0;
    s += taints.score(state, pod, fits);
    s += affinity.score(state, pod, fits);
    return s;
  }
}
