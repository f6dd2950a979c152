package io.fleetkit.scheduler.plugins.schedulinggates;

import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.Status;
import io.fleetkit.scheduler.plugins.helper.ArgsOnlyHandle;
import org.junit.jupiter.api.Test;

/**
 * Cases ported from kubernetes {@code pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates_test.go}
 * (stored version 008b3652): TestPreEnqueue 2/2, TestIsSchedulableAfterUpdateTargetPodSchedulingGatesEliminated 1/1
 * (for {@link ClusterEvent#TARGET_POD_UPDATE_SCHEDULING_GATES_ELIMINATED}).
 */
final class SchedulingGatesPluginTest {
  private final SchedulingGatesPlugin plugin = SchedulingGatesPlugin.INSTANCE;

  @Test
  void preEnqueue_podDoesNotCarrySchedulingGates_success() {
    assertThat(plugin.preEnqueue(pod("p").build()).isSuccess()).isTrue();
  }

  @Test
  void preEnqueue_podCarriesSchedulingGates_unresolvableNamingThem() {
    Status s = plugin.preEnqueue(pod("p").schedulingGate("foo").schedulingGate("bar").build());
    assertThat(s.code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
    assertThat(s.reasons()).containsExactly("waiting for scheduling gates: [foo bar]");
    assertThat(s.plugin()).isEqualTo("SchedulingGates");
  }

  /** TestIsSchedulableAfterUpdateTargetPodSchedulingGatesEliminated. */
  @Test
  void isSchedulableAfterUpdateTargetPodSchedulingGatesEliminated_queue() {
    assertThat(plugin.isSchedulableAfter(pod("p").schedulingGate("foo").build(),
        ClusterEvent.TARGET_POD_UPDATE_SCHEDULING_GATES_ELIMINATED, pod("p").schedulingGate("foo").build(),
        pod("p").build())).isTrue();
  }

  @Test
  void registersOnlyTheGatesEliminated_andTheFactoryNamesIt() {
    assertThat(plugin.eventsToRegister()).containsExactly(ClusterEvent.TARGET_POD_UPDATE_SCHEDULING_GATES_ELIMINATED);
    assertThat(SchedulingGatesPlugin.FACTORY.create(ArgsOnlyHandle.none()).name()).isEqualTo("SchedulingGates");
  }
}
