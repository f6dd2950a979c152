package io.fleetkit.scheduler.plugins.nodename;

import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.node;
import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.nodeInfo;
import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.pod;
import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.podInfo;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.Status;
import io.fleetkit.scheduler.plugins.helper.ArgsOnlyHandle;
import io.fleetkit.scheduler.plugins.helper.SimpleCycleState;
import org.junit.jupiter.api.Test;

/**
 * Cases ported from kubernetes pkg/scheduler/framework/plugins/nodename/node_name_test.go, TestNodeName (upstream has
 * no queueing-hint test for this plugin: its Node/Add event carries no hint function), plus the registered events.
 */
final class NodeNamePluginTest {
  private final NodeNamePlugin plugin = NodeNamePlugin.INSTANCE;

  @Test
  void filter_noHostSpecified_succeeds() {
    // upstream "no host specified" (the node has no name upstream; any name will do here)
    Status s = plugin.filter(new SimpleCycleState(), podInfo(pod("p").build()), nodeInfo(node("node")));
    assertThat(s).isSameAs(Status.success());
  }

  @Test
  void filter_hostMatches_succeeds() {
    // upstream "host matches"
    Status s = plugin.filter(new SimpleCycleState(), podInfo(pod("p").nodeName("foo").build()), nodeInfo(node("foo")));
    assertThat(s.isSuccess()).isTrue();
  }

  @Test
  void filter_hostDoesNotMatch_unresolvable() {
    // upstream "host doesn't match"
    Status s = plugin.filter(new SimpleCycleState(), podInfo(pod("p").nodeName("bar").build()), nodeInfo(node("foo")));
    assertThat(s.code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
    assertThat(s.reasons()).containsExactly("node(s) didn't match the requested node name");
    assertThat(s.plugin()).isEqualTo(NodeNamePlugin.NAME);
  }

  @Test
  void factory_createsTheNamedPlugin() {
    assertThat(NodeNamePlugin.FACTORY.create(ArgsOnlyHandle.none()).name()).isEqualTo("NodeName");
  }

  @Test
  void eventsToRegister_nodeAddOnly_everyAddedNodeRequeues() {
    assertThat(plugin.eventsToRegister()).containsExactly(ClusterEvent.NODE_ADD);
    // upstream's QueueingHintFn is nil for this event: Queue, whatever the node's name
    assertThat(plugin.isSchedulableAfter(pod("p").build(), ClusterEvent.NODE_ADD, null, node("other").build()))
        .isTrue();
  }
}
