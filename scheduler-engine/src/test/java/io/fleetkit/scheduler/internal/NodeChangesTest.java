package io.fleetkit.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes/kubernetes {@code pkg/scheduler/framework/events_test.go}: TestNodeAllocatableChange (2 of
 * 2), TestNodeLabelsChange (2 of 2), TestNodeTaintsChange (2 of 2), TestNodeConditionsChange (5 of 5) and
 * TestNodeSchedulingPropertiesChange (8 of 8). Upstream returns the kinds of change (UpdateNodeLabel, ...);
 * FleetKit's event is one {@code NODE_UPDATE}, so each case asserts whether there is a change at all.
 */
final class NodeChangesTest {
  private static Node.Builder node() {
    return Node.builder().name("n");
  }

  private static ResourceList res(String... kv) {
    ResourceList.Builder b = ResourceList.builder();
    for (int i = 0; i < kv.length; i += 2) {
      b.put(kv[i], kv[i + 1]);
    }
    return b.build();
  }

  private static NodeCondition cond(String type, ConditionStatus status, long heartbeatSeconds) {
    return new NodeCondition(type, status, "", "", Instant.ofEpochSecond(heartbeatSeconds), null);
  }

  static Stream<Arguments> cases() {
    Taint unschedulableEmpty = Taint.of("node.kubernetes.io/unschedulable", "", TaintEffect.NoSchedule);
    Taint unschedulableFoo = Taint.of("node.kubernetes.io/unschedulable", "foo", TaintEffect.NoSchedule);
    return Stream.of(
        // TestNodeAllocatableChange
        Arguments.of("allocatable: no allocatable resources changed", false,
            node().capacity(res("memory", "1Ki")).build(), node().capacity(res("memory", "1Ki")).build()),
        Arguments.of("allocatable: new node has more allocatable resources", true,
            node().capacity(res("memory", "1Ki")).build(),
            node().capacity(res("memory", "1Ki", "storage", "1Ki")).build()),
        // TestNodeLabelsChange
        Arguments.of("labels: no labels changed", false, node().label("foo", "bar").build(),
            node().label("foo", "bar").build()),
        Arguments.of("labels: new object has more labels", true, node().label("foo", "bar").build(),
            node().label("foo", "bar").label("test", "value").build()),
        // TestNodeTaintsChange
        Arguments.of("taints: no taint changed", false, node().taint(Taint.of("key", "value", TaintEffect.NoSchedule))
            .build(), node().taint(Taint.of("key", "value", TaintEffect.NoSchedule)).build()),
        Arguments.of("taints: taint value changed", true, node().taint(Taint.of("key", "value1",
            TaintEffect.NoSchedule)).build(), node().taint(Taint.of("key", "value2", TaintEffect.NoSchedule)).build()),
        // TestNodeConditionsChange
        Arguments.of("conditions: no condition changed", false,
            node().condition(cond("DiskPressure", ConditionStatus.True, 0)).build(),
            node().condition(cond("DiskPressure", ConditionStatus.True, 0)).build()),
        Arguments.of("conditions: only LastHeartbeatTime changed", false,
            node().condition(cond("DiskPressure", ConditionStatus.True, 1)).build(),
            node().condition(cond("DiskPressure", ConditionStatus.True, 2)).build()),
        Arguments.of("conditions: new node has more healthy conditions", true, node().build(),
            node().condition(cond(NodeCondition.READY, ConditionStatus.True, 0)).build()),
        Arguments.of("conditions: new node has less unhealthy conditions", true,
            node().condition(cond("DiskPressure", ConditionStatus.True, 0)).build(), node().build()),
        Arguments.of("conditions: condition status changed", true,
            node().condition(cond(NodeCondition.READY, ConditionStatus.False, 0)).build(),
            node().condition(cond(NodeCondition.READY, ConditionStatus.True, 0)).build()),
        // TestNodeSchedulingPropertiesChange
        Arguments.of("no specific changed applied", false, node().unschedulable(false).build(),
            node().unschedulable(false).build()),
        Arguments.of("only node spec unavailable changed", true, node().unschedulable(true).build(),
            node().unschedulable(false).build()),
        Arguments.of("only node allocatable changed", true,
            node().capacity(res("cpu", "1000m", "memory", "100m", "example.com/foo", "2")).build(),
            node().capacity(res("cpu", "1000m", "memory", "100m", "example.com/foo", "1")).build()),
        Arguments.of("only node label changed", true, node().label("foo", "fuz").build(),
            node().label("foo", "bar").build()),
        Arguments.of("only node taint changed", true, node().taint(unschedulableFoo).build(),
            node().taint(unschedulableEmpty).build()),
        Arguments.of("only node annotation changed", true, node().annotation("foo", "fuz").build(),
            node().annotation("foo", "bar").build()),
        Arguments.of("only node condition changed", true, node().condition(new NodeCondition(NodeCondition.READY,
            ConditionStatus.True, "Ready", "Ready", null, null)).build(), node().build()),
        Arguments.of("both node label and node taint changed", true, node().taint(unschedulableFoo).build(),
            node().label("foo", "bar").taint(unschedulableEmpty).build()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void schedulingPropertiesChanged(String name, boolean changed, Node oldNode, Node newNode) {
    assertThat(NodeChanges.schedulingPropertiesChanged(oldNode, newNode)).isEqualTo(changed);
    assertThat(NodeChanges.schedulingPropertiesChanged(newNode, oldNode)).as("symmetric").isEqualTo(changed);
  }
}
