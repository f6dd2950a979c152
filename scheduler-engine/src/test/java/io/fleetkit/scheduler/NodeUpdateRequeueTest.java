package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeAddress;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which node updates move an unschedulable pod out of the unschedulable pods, as kube-scheduler's
 * {@code updateNodeInCache} with {@code NodeSchedulingPropertiesChange} ({@code pkg/scheduler/framework/events.go}):
 * unschedulable, allocatable, labels, taints, condition statuses and annotations (plus FleetKit's GPU devices) do;
 * a heartbeat (condition times, reason, message) and fields no plugin reads do not. The parked pod is rejected by a
 * plugin without queueing hints, which registers every event, so that what is tested is the engine's filter alone
 * (the default plugins' hints narrow the counted updates further; their own tests show that).
 */
final class NodeUpdateRequeueTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private final ManualClock clock = ManualClock.atEpoch2026();

  private static Node node() {
    ResourceList cap = ResourceList.builder().put("cpu", "1").put("memory", "8Gi").put("pods", "110").build();
    return Node.builder().name("n1").capacity(cap).label("zone", "a").annotation("a", "1")
        .condition(new NodeCondition(NodeCondition.READY, ConditionStatus.True, "KubeletReady",
            "kubelet is posting ready status", T0, T0))
        .condition(new NodeCondition(NodeCondition.MEMORY_PRESSURE, ConditionStatus.False, "", "", T0, T0))
        .build();
  }

  /** Rejects every node and implements no {@code EnqueueExtensions}: every node event may help. */
  private static final class RejectsAll implements FilterPlugin {
    static final String NAME = "RejectsAll";

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      return Status.unresolvable("rejected by " + NAME);
    }
  }

  /** A scheduler holding pod {@code p} as unschedulable after one attempt, rejected by {@link RejectsAll}. */
  private Scheduler parked() {
    PluginRegistry registry = PluginRegistry.defaults().toBuilder().register(RejectsAll.NAME, h -> new RejectsAll())
        .build();
    Scheduler s = Scheduler.builder().clock(clock).binder(new InMemoryBinder()).parallelism(1).seed(1)
        .registry(registry).profile(DefaultPlugins.profile().toBuilder().plugin(RejectsAll.NAME, 0).build()).build();
    s.addNode(node());
    s.addPod(pod("p", 100, 10));
    assertThat(s.scheduleOne().isBound()).isFalse();
    assertThat(queue(s)).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);
    return s;
  }

  private static PendingPod.Queue queue(Scheduler s) {
    return s.pending().get(0).queue();
  }

  private static Node heartbeat(Node n, Duration later) {
    Instant at = T0.plus(later);
    return n.withStatus(n.status().withConditions(n.status().conditions().stream()
        .map(c -> new NodeCondition(c.type(), c.status(), c.reason(), c.message(), at, c.lastTransitionTime()))
        .toList()));
  }

  @Test
  void heartbeatOnlyUpdates_moveNothing() {
    try (Scheduler s = parked()) {
      for (int i = 1; i <= 29; i++) { // a heartbeat every 10 s for 4:50
        clock.advance(Duration.ofSeconds(10));
        s.updateNode(heartbeat(node(), Duration.ofSeconds(10L * i)));
        assertThat(s.scheduleOne()).as("heartbeat %d", i).isNull();
      }
      assertThat(s.pending()).singleElement().satisfies(p -> {
        assertThat(p.queue()).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);
        assertThat(p.attempts()).isEqualTo(1);
      });
      // the 5-minute flush still retries it (upstream podMaxInUnschedulablePodsDuration)
      clock.advance(Duration.ofSeconds(10));
      assertThat(s.scheduleOne()).isNotNull();
      assertThat(s.pending()).singleElement().extracting(PendingPod::attempts).isEqualTo(2);
    }
  }

  static Stream<Arguments> ignored() {
    return Stream.<Arguments>of(
        Arguments.of("reason, message and transition time of a condition", (UnaryOperator<Node>) n ->
            n.withStatus(n.status().withConditions(List.of(new NodeCondition(NodeCondition.READY,
                ConditionStatus.True, "Other", "other", T0.plusSeconds(300), T0.plusSeconds(300)),
                n.status().conditions().get(1))))),
        Arguments.of("conditions reordered", (UnaryOperator<Node>) n -> n.withStatus(n.status().withConditions(
            List.of(n.status().conditions().get(1), n.status().conditions().get(0))))),
        Arguments.of("addresses", (UnaryOperator<Node>) n -> n.toBuilder()
            .address(new NodeAddress("InternalIP", "10.0.0.1")).build()),
        Arguments.of("provider id", (UnaryOperator<Node>) n -> n.toBuilder().providerID("sim://n1").build()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("ignored")
  void updatesOfFieldsNoPluginReads_moveNothing(String what, UnaryOperator<Node> change) {
    try (Scheduler s = parked()) {
      s.updateNode(change.apply(node()));
      assertThat(queue(s)).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);
    }
  }

  static Stream<Arguments> moving() {
    return Stream.<Arguments>of(
        Arguments.of("spec.unschedulable", (UnaryOperator<Node>) n -> n.toBuilder().unschedulable(true).build()),
        Arguments.of("allocatable", (UnaryOperator<Node>) n -> n.toBuilder().allocatable(ResourceList.builder()
            .put("cpu", "900m").put("memory", "8Gi").put("pods", "110").build()).build()),
        Arguments.of("a label", (UnaryOperator<Node>) n -> n.toBuilder().label("zone", "b").build()),
        Arguments.of("a taint", (UnaryOperator<Node>) n -> n.toBuilder()
            .taint(Taint.of("k", "v", TaintEffect.NoSchedule)).build()),
        Arguments.of("a condition's status", (UnaryOperator<Node>) n -> n.withStatus(n.status().withConditions(
            List.of(n.status().conditions().get(0), new NodeCondition(NodeCondition.MEMORY_PRESSURE,
                ConditionStatus.True, "", "", T0, T0))))),
        Arguments.of("a condition added", (UnaryOperator<Node>) n -> n.toBuilder()
            .condition(NodeCondition.of(NodeCondition.DISK_PRESSURE, ConditionStatus.False)).build()),
        Arguments.of("an annotation", (UnaryOperator<Node>) n -> n.toBuilder().annotation("a", "2").build()),
        Arguments.of("the GPU devices", (UnaryOperator<Node>) n -> n.toBuilder()
            .gpu(GpuDevice.of("GPU-0", "a100", 40_960)).build()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("moving")
  void updatesOfSchedulingProperties_movePodToBackoff(String what, UnaryOperator<Node> change) {
    try (Scheduler s = parked()) {
      s.updateNode(heartbeat(change.apply(node()), Duration.ofSeconds(10)));
      assertThat(queue(s)).isEqualTo(PendingPod.Queue.BACKOFF);
    }
  }
}
