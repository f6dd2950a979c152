package io.fleetkit.scheduler.plugins.nodeunschedulable;

import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.node;
import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.nodeInfo;
import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.pod;
import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.podInfo;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.framework.Status;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.scheduler.plugins.helper.ArgsOnlyHandle;
import io.fleetkit.scheduler.plugins.helper.SimpleCycleState;
import org.junit.jupiter.api.Test;

/**
 * Cases ported from kubernetes pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable_test.go,
 * TestNodeUnschedulable (all 3), plus tolerations upstream's helper would also accept.
 */
final class NodeUnschedulablePluginTest {
  private final NodeUnschedulablePlugin plugin = NodeUnschedulablePlugin.INSTANCE;

  @Test
  void filter_unschedulableNode_unresolvable() {
    // upstream "Does not schedule pod to unschedulable node (node.Spec.Unschedulable==true)"
    Status s = plugin.filter(new SimpleCycleState(), podInfo(pod("p").build()),
        nodeInfo(node("node").unschedulable(true)));
    assertThat(s.code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
    assertThat(s.reasons()).containsExactly("node(s) were unschedulable");
    assertThat(s.plugin()).isEqualTo("NodeUnschedulable");
  }

  @Test
  void filter_normalNode_succeeds() {
    // upstream "Schedule pod to normal node"
    Status s = plugin.filter(new SimpleCycleState(), podInfo(pod("p").build()), nodeInfo(node("node")));
    assertThat(s).isSameAs(Status.success());
  }

  @Test
  void filter_podToleratesUnschedulableTaint_succeeds() {
    // upstream "Schedule pod with toleration to unschedulable node (node.Spec.Unschedulable==true)":
    // Key node.kubernetes.io/unschedulable, Effect NoSchedule, operator unset (Equal) with an empty value.
    var pod = pod("p").toleration(Toleration.equal("node.kubernetes.io/unschedulable", "", TaintEffect.NoSchedule));
    Status s = plugin.filter(new SimpleCycleState(), podInfo(pod.build()), nodeInfo(node("node").unschedulable(true)));
    assertThat(s.isSuccess()).isTrue();
  }

  @Test
  void filter_podToleratesEverything_succeeds() {
    var pod = pod("p").toleration(Toleration.exists("", null));
    Status s = plugin.filter(new SimpleCycleState(), podInfo(pod.build()), nodeInfo(node("node").unschedulable(true)));
    assertThat(s.isSuccess()).isTrue();
  }

  @Test
  void filter_tolerationForOtherEffect_unresolvable() {
    var pod = pod("p").toleration(Toleration.exists("node.kubernetes.io/unschedulable", TaintEffect.NoExecute));
    Status s = plugin.filter(new SimpleCycleState(), podInfo(pod.build()), nodeInfo(node("node").unschedulable(true)));
    assertThat(s.isRejected()).isTrue();
  }

  @Test
  void factory_createsTheNamedPlugin() {
    assertThat(NodeUnschedulablePlugin.FACTORY.create(ArgsOnlyHandle.none()).name()).isEqualTo("NodeUnschedulable");
  }
}
